import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { warnAboutEmailedLinks } from '../../src/mail/links.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { person } from '../helpers/people.ts';
import { type SmtpSink, smtpSink } from '../helpers/smtp.ts';

/**
 * No link that leaves in an e-mail is built from request headers: e-mailed links use
 * PUBLIC_BASE_URL only, and without it no e-mail carrying a link is sent.
 */
describe('e-mailed links: never built from request headers', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await smtpSink();
  });
  afterAll(() => sink.close());

  const poisoned = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };
  const smtp = () => ({ url: sink.url, from: 'tracker@example.test' });

  describe('with PUBLIC_BASE_URL', () => {
    let h: TestHarness;
    beforeAll(async () => {
      h = await createHarness({ config: { publicBaseUrl: 'https://tracker.example', trustProxy: 1, smtp: smtp() } });
    });
    afterAll(() => h.close());

    it('a reset asked for with a poisoned Host (and X-Forwarded-Host behind a proxy) mails a link to PUBLIC_BASE_URL', async () => {
      sink.messages.length = 0;
      const target = await person(h);
      const res = await h.request('POST', '/api/console/password-resets/', {
        body: { email: target.email },
        headers: poisoned,
      });
      expect(res.status).toBe(202);
      const [mail] = await sink.received(1);
      expect(mail!.to).toEqual([target.email]);
      expect(mail!.text).toMatch(/https:\/\/tracker\.example\/reset-password#token=[A-Za-z0-9_-]{43}/);
      expect(mail!.text).not.toContain('evil.example');
    });

    it("an invitation made through a poisoned Host carries PUBLIC_BASE_URL's link, in the answer and the e-mail", async () => {
      sink.messages.length = 0;
      const owner = await person(h, { role: 'owner' });
      const res = await owner.request(
        'POST',
        '/api/console/invitations/',
        { email: 'invitee@example.test', role: 'member' },
        { ...poisoned, origin: 'http://evil.example' },
      );
      expect(res.status).toBe(201);
      expect(res.body.data.emailed).toBe(true);
      expect(res.body.data.url).toMatch(/^https:\/\/tracker\.example\/invite#token=/);
      const [mail] = await sink.received(1);
      expect(mail!.text).toContain(res.body.data.url);
      expect(mail!.text).not.toContain('evil.example');
    });
  });

  describe('without PUBLIC_BASE_URL', () => {
    let h: TestHarness;
    beforeAll(async () => {
      h = await createHarness({ config: { publicBaseUrl: null, trustProxy: 1, smtp: smtp() } });
    });
    afterAll(() => h.close());

    it('a self-service reset records and mails nothing, and answers as always', async () => {
      sink.messages.length = 0;
      const target = await person(h);
      const res = await h.request('POST', '/api/console/password-resets/', {
        body: { email: target.email },
        headers: poisoned,
      });
      expect(res.status).toBe(202);
      const resets = await h.ctx.db.selectFrom('password_resets').select('id').execute();
      expect(resets).toEqual([]);
      expect(sink.messages).toEqual([]);
    });

    it('an invitation is not e-mailed; its link is shown only to the person who invited', async () => {
      sink.messages.length = 0;
      const owner = await person(h, { role: 'owner' });
      const res = await owner.request(
        'POST',
        '/api/console/invitations/',
        { email: 'unsent@example.test', role: 'member' },
        { origin: 'http://tt.test' },
      );
      expect(res.status).toBe(201);
      expect(res.body.data.emailed).toBe(false);
      expect(res.body.data.url).toMatch(/^http:\/\/tt\.test\/invite#token=/);
      expect(sink.messages).toEqual([]);
    });

    it('serve warns once at start that these e-mails stay unsent', () => {
      const warnings: unknown[] = [];
      const log = { warn: (message: unknown) => void warnings.push(message) } as never;
      warnAboutEmailedLinks({ config: { ...loadConfig({}), smtp: smtp() } }, log);
      expect(warnings).toEqual([expect.stringMatching(/PUBLIC_BASE_URL is not/)]);
      warnings.length = 0;
      warnAboutEmailedLinks({ config: { ...loadConfig({ PUBLIC_BASE_URL: 'https://t.example' }), smtp: smtp() } }, log);
      warnAboutEmailedLinks({ config: loadConfig({}) }, log);
      expect(warnings).toEqual([]);
    });
  });
});
