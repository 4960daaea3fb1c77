/**
 * Auto-disable and its notice (spec 3 "Webhook endpoint", API-DECISIONS): the endpoint's
 * creator and the workspace owners each get an operator-visible record in `notifications`
 * (listed by `tasktracker notifications list`), a warn log line is written, and an e-mail goes
 * to those with an address when SMTP_URL is configured.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { DISABLE_AFTER_ABANDONED } from './delivery-policy.ts';
import { webhookIo } from './io.ts';

export interface DisabledNotice {
  endpointId: number;
  url: string;
  organizationId: number;
  subject: string;
  body: string;
  recipients: Array<{ notificationId: number; userId: number; email: string | null }>;
}

export const AUTO_DISABLED_REASON = `Disabled automatically after ${DISABLE_AFTER_ABANDONED} consecutive abandoned deliveries.`;

/**
 * Disables the endpoint if it is still enabled and records the notifications, inside the
 * transaction that abandoned the 20th delivery. Returns null when another worker got there first.
 */
export async function disableForFailures(trx: Executor, endpointId: number, now: string, lastError: string | null): Promise<DisabledNotice | null> {
  const endpoint = await trx
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_reason: AUTO_DISABLED_REASON, updated_at: now })
    .where('id', '=', endpointId)
    .where('enabled', '=', 1)
    .returning(['id', 'url', 'organization_id', 'created_by'])
    .executeTakeFirst();
  if (!endpoint) return null;

  const recipients = await trx
    .selectFrom('users')
    .select(['id', 'email'])
    .where('organization_id', '=', endpoint.organization_id)
    .where((eb) => eb.or([eb('id', '=', endpoint.created_by), eb('role', '=', 'owner')]))
    .orderBy('id')
    .execute();
  const subject = `Webhook endpoint ${endpoint.id} was disabled`;
  const body = [
    `The webhook endpoint ${endpoint.id} (${endpoint.url}) was disabled after ${DISABLE_AFTER_ABANDONED} consecutive deliveries were abandoned`,
    `(each failed 6 attempts over about 9 hours). Last error: ${lastError ?? 'none recorded'}.`,
    '',
    'Fix the receiver, then re-enable the endpoint with PATCH /api/v1/webhooks/endpoints/' + `${endpoint.id}/ and {"enabled": true}.`,
    'Events that occurred while it was disabled were not queued; failed deliveries can be re-sent with',
    'POST /api/v1/webhooks/deliveries/{id}/replay/ (list them with GET /api/v1/webhooks/deliveries/?status=failed' + `&endpoint=${endpoint.id}).`,
  ].join('\n');

  const notified: DisabledNotice['recipients'] = [];
  for (const user of recipients) {
    const row = await trx
      .insertInto('notifications')
      .values({
        organization_id: endpoint.organization_id,
        user_id: user.id,
        kind: 'webhook_endpoint_disabled',
        subject,
        body,
        data: JSON.stringify({ endpoint_id: endpoint.id, url: endpoint.url, last_error: lastError }),
        created_at: now,
        emailed_at: null,
        email_error: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    notified.push({ notificationId: row.id, userId: user.id, email: user.email });
  }
  return { endpointId: endpoint.id, url: endpoint.url, organizationId: endpoint.organization_id, subject, body, recipients: notified };
}

/** After the transaction committed: the log line and, with SMTP configured, the e-mails. */
export async function announceDisabled(ctx: AppContext, log: FastifyBaseLogger, notice: DisabledNotice): Promise<void> {
  log.warn(
    { endpoint_id: notice.endpointId, organization_id: notice.organizationId, url: notice.url, notified_users: notice.recipients.map((r) => r.userId) },
    `webhook endpoint disabled after ${DISABLE_AFTER_ABANDONED} consecutive abandoned deliveries`,
  );
  const mailer = webhookIo(ctx).mailer;
  if (!mailer) return;
  for (const recipient of notice.recipients) {
    if (!recipient.email) continue;
    try {
      await mailer.send({ to: [recipient.email], subject: notice.subject, text: notice.body });
      await ctx.db.updateTable('notifications').set({ emailed_at: ctx.clock.nowIso() }).where('id', '=', recipient.notificationId).execute();
    } catch (error) {
      log.error({ err: error, notification_id: recipient.notificationId }, 'could not e-mail a notification');
      await ctx.db.updateTable('notifications').set({ email_error: String(error) }).where('id', '=', recipient.notificationId).execute();
    }
  }
}

/** Operator view of notifications, newest first (`tasktracker notifications list`). */
export async function listNotifications(ctx: AppContext, options: { org?: string; limit: number }) {
  let query = ctx.db
    .selectFrom('notifications as n')
    .innerJoin('users as u', 'u.id', 'n.user_id')
    .innerJoin('organizations as o', 'o.id', 'n.organization_id')
    .select([
      'n.id',
      'o.slug as organization',
      'n.user_id as user',
      'u.name as user_name',
      'u.email as user_email',
      'n.kind',
      'n.subject',
      'n.body',
      'n.data',
      'n.created_at',
      'n.emailed_at',
      'n.email_error',
    ])
    .orderBy('n.id', 'desc')
    .limit(options.limit);
  if (options.org) query = query.where('o.slug', '=', options.org);
  const rows = await query.execute();
  return { notifications: rows.map((row) => ({ ...row, data: JSON.parse(row.data) as unknown })) };
}
