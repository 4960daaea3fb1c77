/**
 * Auto-disable and its notice (docs/api/webhooks.md, "Receiving webhooks"): the endpoint's
 * creator and the workspace owners each get an operator-visible record in `notifications`
 * (listed by `tasktracker notifications list`), a warn log line is written, and an e-mail goes
 * to those with an address when SMTP_URL is configured.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { DISABLE_AFTER_ABANDONED } from './delivery/delivery-policy.ts';
import { canMail, sendOrLogFailure } from '../../mail/send.ts';
import * as repo from './notifications.repository.ts';
import { recordAudit, SYSTEM_ACTOR } from '../audit/record-audit.ts';
import { recordNotifications } from '../notifications/record-notifications.ts';
import { findOrganization } from '../people/people.repository.ts';
import { schedulerOrigin } from '../../events/record-event.ts';

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
export async function disableForFailures(
  db: Executor,
  endpointId: number,
  now: string,
  lastError: string | null,
): Promise<DisabledNotice | null> {
  const endpoint = await repo.disableEnabledEndpoint(db, endpointId, AUTO_DISABLED_REASON, now);
  if (!endpoint) return null;
  await recordAudit(
    { db, clock: { nowMs: () => Date.parse(now), nowIso: () => now } },
    {
      organizationId: endpoint.organization_id,
      actor: SYSTEM_ACTOR,
      action: 'webhook.disabled',
      target: { type: 'webhook', id: endpoint.id, label: endpoint.url },
      projectId: endpoint.project_id,
      before: { enabled: true },
      after: { enabled: false, reason: AUTO_DISABLED_REASON },
    },
  );

  const recipients = await repo.endpointStewards(db, endpoint.organization_id, endpoint.created_by);
  const subject = `Webhook endpoint ${endpoint.id} was disabled`;
  const body = [
    `The webhook endpoint ${endpoint.id} (${endpoint.url}) was disabled after ${DISABLE_AFTER_ABANDONED} consecutive deliveries were abandoned`,
    `(each failed 6 attempts over about 9 hours). Last error: ${lastError ?? 'none recorded'}.`,
    '',
    'Fix the receiver, then re-enable the endpoint with PATCH /api/v1/webhooks/endpoints/' +
      `${endpoint.id}/ and {"enabled": true}.`,
    'Events that occurred while it was disabled were not queued; failed deliveries can be re-sent with',
    'POST /api/v1/webhooks/deliveries/{id}/replay/ (list them with GET /api/v1/webhooks/deliveries/?status=failed' +
      `&endpoint=${endpoint.id}).`,
  ].join('\n');

  const origin = schedulerOrigin(await findOrganization(db, endpoint.organization_id));
  const ids = await recordNotifications(
    db,
    recipients.map((user) => ({
      row: {
        organization_id: endpoint.organization_id,
        user_id: user.id,
        kind: 'webhook_endpoint_disabled',
        reason: 'endpoint_disabled',
        subject,
        body,
        data: JSON.stringify({ endpoint_id: endpoint.id, url: endpoint.url, last_error: lastError }),
        created_at: now,
        emailed_at: null,
        email_error: null,
      },
      origin,
      actor: null,
      task: null,
    })),
    now,
  );
  const notified = recipients.map((user, i) => ({ notificationId: ids[i]!, userId: user.id, email: user.email }));
  return {
    endpointId: endpoint.id,
    url: endpoint.url,
    organizationId: endpoint.organization_id,
    subject,
    body,
    recipients: notified,
  };
}

/** After the transaction committed: the log line and, with SMTP configured, the e-mails. */
export async function announceDisabled(ctx: AppContext, log: FastifyBaseLogger, notice: DisabledNotice): Promise<void> {
  log.warn(
    {
      endpoint_id: notice.endpointId,
      organization_id: notice.organizationId,
      url: notice.url,
      notified_users: notice.recipients.map((r) => r.userId),
    },
    `webhook endpoint disabled after ${DISABLE_AFTER_ABANDONED} consecutive abandoned deliveries`,
  );
  if (!canMail(ctx)) return;
  for (const recipient of notice.recipients) {
    if (!recipient.email) continue;
    const failure = await sendOrLogFailure(
      ctx,
      log,
      { to: [recipient.email], subject: notice.subject, text: notice.body },
      { message: 'could not e-mail a notification', fields: { notification_id: recipient.notificationId } },
    );
    if (failure === null) await repo.markNotificationEmailed(ctx.db, recipient.notificationId, ctx.clock.nowIso());
    else await repo.markNotificationEmailFailed(ctx.db, recipient.notificationId, failure);
  }
}

/** Operator view of notifications, newest first (`tasktracker notifications list`). */
export async function listNotifications(ctx: AppContext, options: { org?: string; limit: number }) {
  const rows = await repo.recentNotifications(ctx.db, options);
  return { notifications: rows.map((row) => ({ ...row, data: JSON.parse(row.data) as unknown })) };
}
