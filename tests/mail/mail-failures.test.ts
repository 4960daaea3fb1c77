import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { capturedLog, type CapturedLog } from '../helpers/log.ts';
import { person } from '../helpers/people.ts';

/**
 * A message the SMTP server refuses is logged with why: the server's reply, its code and the
 * command it refused, under the invitation's or notification's id; never SMTP_URL's password.
 */
const PASSWORD = 'Sm7p-s3cret!';

describe('e-mail the SMTP server refuses', () => {
  let server: SMTPServer;
  let port: number;

  beforeAll(async () => {
    // A real SMTP server on loopback: plain AUTH, one right password, and no mailbox for nobody-*.
    server = new SMTPServer({
      logger: false,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        if (auth.password === PASSWORD) return callback(null, { user: auth.username });
        callback(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
      },
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('nobody')) {
          return callback(Object.assign(new Error('5.1.1 No such user here'), { responseCode: 550 }));
        }
        callback();
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback());
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function harnessWith(password: string): Promise<{ h: TestHarness; log: CapturedLog }> {
    const log = capturedLog();
    const h = await createHarness({
      config: {
        publicBaseUrl: 'https://tracker.example',
        smtp: { url: `smtp://mailer:${encodeURIComponent(password)}@127.0.0.1:${port}`, from: 'tracker@example.test' },
      },
      logTo: log.stream,
    });
    return { h, log };
  }

  describe('a recipient the server rejects', () => {
    let h: TestHarness;
    let log: CapturedLog;
    beforeAll(async () => ({ h, log } = await harnessWith(PASSWORD)));
    afterAll(() => h.close());

    it('an invitation answers emailed: false and logs the reply', async () => {
      const owner = await person(h, { role: 'owner' });
      const res = await owner.request('POST', '/api/console/invitations/', {
        email: 'nobody-invited@example.test',
        role: 'member',
      });
      expect(res.status).toBe(201);
      expect(res.body.data.emailed).toBe(false);
      const line = await log.waitFor((l) => l.msg === 'could not e-mail an invitation');
      expect(line).toMatchObject({
        level: 50,
        invitation_id: res.body.data.id,
        code: 'EENVELOPE',
        response_code: 550,
        command: 'RCPT TO',
        reason: expect.stringContaining('5.1.1 No such user here'),
      });
      expect(line).not.toHaveProperty('err');
    });

    it('a password reset logs the reply', async () => {
      const target = await person(h, { email: 'nobody-resets@example.test' });
      const res = await h.request('POST', '/api/console/password-resets/', { body: { email: target.email } });
      expect(res.status).toBe(202);
      const line = await log.waitFor((l) => l.msg === 'could not e-mail a password reset link');
      expect(line).toMatchObject({ response_code: 550, reason: expect.stringContaining('No such user here') });
    });
  });

  describe('a wrong SMTP password', () => {
    let h: TestHarness;
    let log: CapturedLog;
    const wrong = `${PASSWORD}-wrong`;
    beforeAll(async () => ({ h, log } = await harnessWith(wrong)));
    afterAll(() => h.close());

    it('logs the refusal without the password', async () => {
      const owner = await person(h, { role: 'owner' });
      const res = await owner.request('POST', '/api/console/invitations/', {
        email: 'someone@example.test',
        role: 'member',
      });
      expect(res.body.data.emailed).toBe(false);
      const line = await log.waitFor((l) => l.msg === 'could not e-mail an invitation');
      expect(line).toMatchObject({ code: 'EAUTH', response_code: 535, reason: expect.stringContaining('535') });
      expect(log.raw.filter((raw) => raw.includes(wrong) || raw.includes(encodeURIComponent(wrong)))).toEqual([]);
    });
  });
});
