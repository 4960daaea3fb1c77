import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDueNotificationEmails } from '../../src/modules/notifications/notification-mail.service.ts';
import { sendStandupDigests } from '../../src/modules/notifications/standup-digest.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { person } from '../helpers/people.ts';
import { type SmtpSink, smtpSink } from '../helpers/smtp.ts';

const BASE = 'https://tracker.example';

describe('the daily digest by e-mail, through a real SMTP server', () => {
  let sink: SmtpSink;
  let h: TestHarness;
  const log = { warn: () => undefined, error: () => undefined, info: () => undefined, debug: () => undefined } as never;

  beforeAll(async () => {
    sink = await smtpSink();
    h = await createHarness({
      config: {
        publicBaseUrl: BASE,
        smtp: { url: sink.url, from: 'tracker@example.test' },
        notifications: { emailDelaySeconds: 60 },
      },
    });
  });
  afterAll(async () => {
    await h.close();
    await sink.close();
  });

  it('mails one digest with the link to today’s check-in and an unsubscribe link for standup reminders only', async () => {
    const ann = await person(h, { role: 'admin', email: 'ann@example.test' });
    const created = await ann.request('POST', '/api/v1/projects/', { name: 'Mail', key: 'DM' });
    expect(created.status, created.text).toBe(201);
    h.clock.set('2026-11-23T09:30:00Z');
    expect(await sendStandupDigests(h.ctx)).toBe(1);
    h.clock.advance(59_000);
    expect(await sendDueNotificationEmails(h.ctx, log)).toBe(0);
    h.clock.advance(1_000);
    expect(await sendDueNotificationEmails(h.ctx, log)).toBe(1);

    const [mail] = await sink.received(1);
    const link = `${BASE}/standups?tab=me&prefill=1`;
    expect(mail!.to).toEqual(['ann@example.test']);
    expect(mail!.subject).toBe(
      'Standup for 2026-11-23: 0 tasks in flight, 0 followed tasks changed, 0 blockers naming you',
    );
    expect(mail!.text).toContain(
      [
        mail!.subject,
        'Your tasks in flight:',
        '- none',
        '',
        'Changed on tasks you follow since your last digest:',
        '- none',
        '',
        'Blockers that name you:',
        '- none',
        link,
        '',
        'You get these e-mails for "standup reminders".',
      ].join('\n'),
    );
    expect(mail!.html).toContain(`<a href="${link.replaceAll('&', '&amp;')}">${mail!.subject}</a>`);
    const unsubscribe = /<(https:\/\/[^>]+)>/.exec(mail!.headers['list-unsubscribe']!)![1]!;
    expect(new URL(unsubscribe).searchParams.get('reason')).toBe('standup_reminder');
    expect(new URL(unsubscribe).searchParams.get('user')).toBe(String(ann.userId));
  });
});
