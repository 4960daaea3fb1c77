/**
 * Notification e-mail (docs/api/notifications.md, "E-mail"). A notification whose reason its
 * recipient chose for e-mail is due NOTIFICATION_EMAIL_DELAY_SECONDS after the first of its
 * person's and reason's waiting ones (notify.service.ts), so what comes within that time goes
 * out in one e-mail. The worker claims due ones, checks again that the person may still hear
 * of them, and sends one message per person and reason, HTML and plain text, with the task's
 * link and a one-click unsubscribe link for that reason. A failure is logged with its reason
 * and retried with growing pauses for about a day, so an SMTP server down for hours loses
 * nothing.
 */
import { isoFromMs } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import type { Log } from '../../logger.ts';
import { emailedLinkBase } from '../../mail/links.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import * as repo from './notifications.repository.ts';
import type { Reason } from './reasons.ts';
import { unsubscribeUrl } from './unsubscribe.ts';

/** A claimed e-mail is left alone this long; a worker that dies with it leaves it due again then. */
const LEASE_MS = 10 * 60_000;
/** Pauses between attempts double from a minute up to 30; after MAX_ATTEMPTS (about a day) it is given up. */
const MAX_PAUSE_MINUTES = 30;
const MAX_ATTEMPTS = 50;
const pauseMinutes = (attempts: number) => Math.min(2 ** (attempts - 1), MAX_PAUSE_MINUTES);

const REASON_TITLES: Record<Reason, string> = {
  assigned: 'assigned to you',
  mentioned: 'you were mentioned',
  commented: 'new comments',
  status_changed: 'status changes',
  updated: 'changes on tasks you follow',
  due_soon: 'due soon',
  overdue: 'overdue',
  blocked: 'blocked',
  standup_reminder: 'standup reminders',
  endpoint_disabled: 'disabled webhook endpoints',
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type Claimed = Awaited<ReturnType<typeof repo.claimDueEmails>>[number];

/** Sends the e-mails due now; returns how many notifications it claimed. */
export async function sendDueNotificationEmails(ctx: AppContext, log: Log, limit = 200): Promise<number> {
  const mailer = ctx.mailer;
  const base = emailedLinkBase(ctx);
  if (!mailer || !base) return 0;
  const claimed = await inTransaction(ctx, (tx) =>
    repo.claimDueEmails(tx.db, tx.clock.nowIso(), isoFromMs(tx.clock.nowMs() + LEASE_MS), limit),
  );
  if (claimed.length === 0) return 0;

  const userIds = [...new Set(claimed.map((n) => n.user_id))];
  const projectIds = [...new Set(claimed.flatMap((n) => (n.project_id === null ? [] : [n.project_id])))];
  const members = new Set(
    projectIds.length
      ? (await repo.activeMembersAmong(ctx.db, userIds, projectIds)).map((m) => `${m.user_id}:${m.project_id}`)
      : [],
  );
  const emailOff = new Set(
    (await repo.preferencesOf(ctx.db, userIds)).filter((p) => p.email === 0).map((p) => `${p.user_id}:${p.reason}`),
  );

  const batches = new Map<string, Claimed[]>();
  const dropped = new Map<string, number[]>();
  for (const n of claimed) {
    const why =
      !n.email || n.active !== 1
        ? 'not sent: the account has no e-mail address or is deactivated'
        : n.project_id !== null && !members.has(`${n.user_id}:${n.project_id}`)
          ? 'not sent: the recipient no longer sees the task'
          : emailOff.has(`${n.user_id}:${n.reason}`)
            ? 'not sent: e-mail was turned off for this reason'
            : null;
    if (why) dropped.set(why, [...(dropped.get(why) ?? []), n.id]);
    else batches.set(`${n.user_id}:${n.reason}`, [...(batches.get(`${n.user_id}:${n.reason}`) ?? []), n]);
  }
  for (const [why, ids] of dropped) await repo.dropEmails(ctx.db, ids, why);

  for (const batch of batches.values()) {
    const ids = batch.map((n) => n.id);
    const message = await composeMail(ctx, base, batch);
    try {
      await mailer.send(message);
      await repo.markEmailed(ctx.db, ids, ctx.clock.nowIso());
    } catch (error) {
      const attempts = Math.max(...batch.map((n) => n.email_attempts)) + 1;
      const retryAt = attempts >= MAX_ATTEMPTS ? null : isoFromMs(ctx.clock.nowMs() + pauseMinutes(attempts) * 60_000);
      log.warn(
        { err: error, notification_ids: ids, attempts, retry_at: retryAt },
        retryAt ? 'notification e-mail failed; retrying' : 'notification e-mail failed; giving up',
      );
      await repo.markEmailFailed(ctx.db, ids, String(error), retryAt);
    }
  }
  return claimed.length;
}

async function composeMail(ctx: AppContext, base: string, batch: Claimed[]): Promise<MailMessage> {
  const first = batch[0]!;
  const reason = first.reason as Reason;
  const unsubscribe = await unsubscribeUrl(ctx, base, first.user_id, reason);
  // The task (at the comment), or for a notification about no task the app path it names (the digest's check-in).
  const linkOf = (n: Claimed) => {
    if (n.task_key !== null) return `${base}/t/${n.task_key}${n.comment_id === null ? '' : `#comment-${n.comment_id}`}`;
    const path = (JSON.parse(n.data) as { link?: unknown }).link;
    return typeof path === 'string' && path.startsWith('/') ? `${base}${path}` : null;
  };
  const subject = batch.length === 1 ? first.subject : `${batch.length} notifications: ${REASON_TITLES[reason]}`;

  const text = [
    ...batch.flatMap((n) => {
      const link = linkOf(n);
      return [n.subject, ...(n.body ? [n.body] : []), ...(link ? [link] : []), ''];
    }),
    `You get these e-mails for "${REASON_TITLES[reason]}". To stop them: ${unsubscribe}`,
    `Choose what you are told in Settings: ${base}/settings`,
    '',
  ].join('\n');

  const item = (n: Claimed) => {
    const link = linkOf(n);
    const title = link ? `<a href="${escapeHtml(link)}">${escapeHtml(n.subject)}</a>` : escapeHtml(n.subject);
    const body = n.body ? `<div style="white-space:pre-wrap;color:#444">${escapeHtml(n.body)}</div>` : '';
    return `<li style="margin-bottom:12px">${title}${body}</li>`;
  };
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    `<ul style="padding-left:18px">${batch.map(item).join('')}</ul>`,
    `<p style="color:#666;font-size:12px">You get these e-mails for &ldquo;${escapeHtml(REASON_TITLES[reason])}&rdquo;. `,
    `<a href="${escapeHtml(unsubscribe)}">Stop e-mails like this</a> &middot; `,
    `<a href="${escapeHtml(`${base}/settings`)}">Settings</a></p>`,
    '</body></html>',
  ].join('');

  return {
    to: [first.email!],
    subject,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
