import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configuredMailer } from '../../src/mail/mailer.ts';
import { sendDueNotificationEmails } from '../../src/modules/notifications/notification-mail.service.ts';
import { notifyAboutEvents } from '../../src/modules/notifications/notify.service.ts';
import { removeMember } from '../helpers/factory.ts';
import { type Actor, createHarness, type TestHarness } from '../helpers/harness.ts';
import { person } from '../helpers/people.ts';
import { type SmtpSink, smtpSink } from '../helpers/smtp.ts';

const BASE = 'https://tracker.example';

/** An SMTP URL where nothing listens: every connection is refused. */
async function deadSmtpUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `smtp://127.0.0.1:${port}`;
}

describe('notification e-mail, end to end through a real SMTP server', () => {
  let sink: SmtpSink;
  let h: TestHarness;
  let lead: Actor;
  let ann: Awaited<ReturnType<typeof person>>;
  const warnings: Array<{ msg: string; fields: Record<string, unknown> }> = [];
  const log = {
    warn: (fields: Record<string, unknown>, msg: string) => void warnings.push({ fields, msg }),
    error: () => undefined,
    info: () => undefined,
    debug: () => undefined,
  } as never;

  const createTask = async (body: Record<string, unknown>) => {
    const res = await h.request('POST', '/api/v1/projects/MAIL/tasks/', { token: lead.token, body });
    expect(res.status, res.text).toBe(201);
    return res.body.data.key as string;
  };
  const send = () => sendDueNotificationEmails(h.ctx, log);

  beforeAll(async () => {
    sink = await smtpSink();
    h = await createHarness({
      config: {
        publicBaseUrl: BASE,
        smtp: { url: sink.url, from: 'tracker@example.test' },
        notifications: { emailDelaySeconds: 60 },
      },
    });
    ann = await person(h, { role: 'member', email: 'ann@example.test' });
    lead = await h.actor({ org: ann.org, role: 'admin' });
    await h.project(lead, 'MAIL');
    await h.addMember('MAIL', ann.userId);
  });
  afterAll(async () => {
    await h.close();
    await sink.close();
  });

  it('batches one reason within the delay into one e-mail, sent when the delay after the first has passed', async () => {
    const first = await createTask({ title: 'First <thing>', assignee: ann.userId });
    await notifyAboutEvents(h.ctx);
    h.clock.advance(30_000);
    const second = await createTask({ title: 'Second', assignee: ann.userId });
    await notifyAboutEvents(h.ctx);
    h.clock.advance(29_000);
    expect(await send()).toBe(0);
    h.clock.advance(1_000);
    expect(await send()).toBe(2);

    const [mail] = await sink.received(1);
    expect(mail!.to).toEqual(['ann@example.test']);
    expect(mail!.subject).toBe('2 notifications: assigned to you');
    expect(mail!.text).toContain(`assigned ${first} “First <thing>” to you`);
    expect(mail!.text).toContain(`${BASE}/t/${first}\n`);
    expect(mail!.text).toContain(`${BASE}/t/${second}\n`);
    expect(mail!.html).toContain(`<a href="${BASE}/t/${first}">`);
    expect(mail!.html).toContain('First &lt;thing&gt;');
    const unsubscribe = /<(https:\/\/[^>]+)>/.exec(mail!.headers['list-unsubscribe']!)![1]!;
    expect(unsubscribe.startsWith(`${BASE}/api/v1/notifications/unsubscribe/?`)).toBe(true);
    expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail!.text).toContain(unsubscribe);
    expect(mail!.html).toContain(unsubscribe.replaceAll('&', '&amp;'));

    // Sent once: nothing is due any more.
    expect(await send()).toBe(0);
    const rows = await h.ctx.db.selectFrom('notifications').select(['emailed_at', 'email_due_at']).execute();
    expect(rows.every((r) => r.emailed_at !== null && r.email_due_at === null)).toBe(true);
  });

  it('the unsubscribe link works without signing in, for its own reason and person only', async () => {
    const [mail] = sink.messages;
    const url = new URL(/<(https:\/\/[^>]+)>/.exec(mail!.headers['list-unsubscribe']!)![1]!);
    const path = `${url.pathname}${url.search}`;

    const shown = await h.request('GET', path);
    expect(shown.status).toBe(200);
    expect(shown.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(shown.text).toContain('<form method="post"');
    const prefs = async () =>
      (await ann.request('GET', '/api/v1/me/notification-preferences/')).body.data.reasons as Record<
        string,
        { in_app: boolean; email: boolean }
      >;
    // Looking at the page (or a scanner following the link) changes nothing.
    expect((await prefs()).assigned).toEqual({ in_app: true, email: true });

    const forged = [
      path.replace('reason=assigned', 'reason=mentioned'),
      path.replace(`user=${ann.userId}`, `user=${lead.accountId}`),
      path.replace(/token=[^&]+/, 'token=x'),
    ];
    for (const bad of forged) {
      expect((await h.request('POST', bad)).status, bad).toBe(404);
      expect((await h.request('GET', bad)).status, bad).toBe(404);
    }

    const done = await h.request('POST', path, {
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(done.status, done.text).toBe(200);
    expect(done.text).toContain('no longer get e-mails');
    const after = await prefs();
    expect(after.assigned).toEqual({ in_app: true, email: false });
    expect(after.mentioned).toEqual({ in_app: true, email: true });

    // Assignments still come in the app, no longer by e-mail.
    await createTask({ title: 'Quietly', assignee: ann.userId });
    await notifyAboutEvents(h.ctx);
    h.clock.advance(60_000);
    expect(await send()).toBe(0);
    expect(sink.messages.length).toBe(1);
  });

  it('nothing is lost while SMTP is down for an hour: failures are logged with the reason and retried', async () => {
    const working = h.ctx.mailer;
    h.ctx.mailer = configuredMailer({ ...h.ctx.config, smtp: { url: await deadSmtpUrl(), from: 'x@example.test' } });
    try {
      const key = await createTask({ title: 'While down', description: 'For @' + (await handleOf(ann.userId)) });
      await notifyAboutEvents(h.ctx);
      h.clock.advance(60_000);
      expect(await send()).toBe(1);
      for (let minute = 0; minute < 60; minute++) {
        h.clock.advance(60_000);
        await send();
      }
      const row = await h.ctx.db
        .selectFrom('notifications')
        .select(['email_attempts', 'email_error', 'emailed_at', 'email_due_at'])
        .where('reason', '=', 'mentioned')
        .executeTakeFirstOrThrow();
      expect(row.emailed_at).toBeNull();
      expect(row.email_due_at).not.toBeNull();
      // 1, 2, 4, 8 and 16 minutes apart: six attempts in the hour.
      expect(row.email_attempts).toBe(6);
      expect(row.email_error).toMatch(/ECONNREFUSED/);
      expect(warnings.length).toBe(6);
      expect(warnings[0]).toMatchObject({ msg: 'notification e-mail failed; retrying', fields: { attempts: 1 } });
      expect(String(warnings[0]!.fields.err)).toMatch(/ECONNREFUSED/);

      h.ctx.mailer = working;
      h.clock.advance(30 * 60_000);
      expect(await send()).toBe(1);
      const [, mail] = await sink.received(2);
      expect(mail!.subject).toContain(`mentioned you in ${key}`);
      expect(mail!.headers['list-unsubscribe']).toContain('reason=mentioned');
    } finally {
      h.ctx.mailer = working;
    }
  });

  it('a person removed from the project before the e-mail leaves is not mailed', async () => {
    await ann.request('PATCH', '/api/v1/me/notification-preferences/', { reasons: { assigned: { email: true } } });
    await createTask({ title: 'Then removed', assignee: ann.userId });
    await notifyAboutEvents(h.ctx);
    await removeMember(h, lead, 'MAIL', ann.userId);
    h.clock.advance(60_000);
    expect(await send()).toBe(1);
    expect(sink.messages.length).toBe(2);
    const row = await h.ctx.db
      .selectFrom('notifications')
      .select(['email_error', 'emailed_at', 'email_due_at'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      email_error: 'not sent: the recipient no longer sees the task',
      emailed_at: null,
      email_due_at: null,
    });
  });

  const handleOf = async (id: number) =>
    (await h.ctx.db.selectFrom('users').select('handle').where('id', '=', id).executeTakeFirstOrThrow()).handle;
});
