/**
 * Auto-disable and its notice (docs/api/webhooks.md, "Receiving webhooks"): in the transaction
 * that disables the endpoint, the people responsible for it who may see it (its creator, its
 * governing account, and the workspace owners and admins) get an `endpoint_disabled`
 * notification like any other reason: in the app and, as each chose (on by default), by
 * e-mail through the notification e-mail worker. A warn log line follows the commit.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { DISABLE_AFTER_ABANDONED } from './delivery/delivery-policy.ts';
import * as repo from './notifications.repository.ts';
import { recordAudit, SYSTEM_ACTOR } from '../audit/record-audit.ts';
import { notifyAccounts } from '../notifications/notify.service.ts';
import { findOrganization } from '../people/people.repository.ts';

export interface DisabledNotice {
  endpointId: number;
  url: string;
  organizationId: number;
  /** The accounts told, by id. */
  notified: number[];
}

export const AUTO_DISABLED_REASON = `Disabled automatically after ${DISABLE_AFTER_ABANDONED} consecutive abandoned deliveries.`;

/**
 * Disables the endpoint if it is still enabled and records the audit record and the
 * notifications, inside the transaction that abandoned the 20th delivery. Returns null when
 * another worker got there first.
 */
export async function disableForFailures(
  tx: Tx,
  endpointId: number,
  lastError: string | null,
): Promise<DisabledNotice | null> {
  const now = tx.clock.nowIso();
  const endpoint = await repo.disableEnabledEndpoint(tx.db, endpointId, AUTO_DISABLED_REASON, now);
  if (!endpoint) return null;
  await recordAudit(tx, {
    organizationId: endpoint.organization_id,
    actor: SYSTEM_ACTOR,
    action: 'webhook.disabled',
    target: { type: 'webhook', id: endpoint.id, label: endpoint.url },
    projectId: endpoint.project_id,
    before: { enabled: true },
    after: { enabled: false, reason: AUTO_DISABLED_REASON },
  });

  const body = [
    `The webhook endpoint ${endpoint.id} (${endpoint.url}) was disabled after ${DISABLE_AFTER_ABANDONED} consecutive deliveries were abandoned`,
    `(each failed 6 attempts over about 9 hours). Last error: ${lastError ?? 'none recorded'}.`,
    '',
    'Fix the receiver, then re-enable the endpoint in Settings → Webhooks, or with PATCH /api/v1/webhooks/endpoints/' +
      `${endpoint.id}/ and {"enabled": true}.`,
    'Events that occurred while it was disabled were not queued; failed deliveries can be re-sent with',
    'POST /api/v1/webhooks/deliveries/{id}/replay/ (list them with GET /api/v1/webhooks/deliveries/?status=failed' +
      `&endpoint=${endpoint.id}).`,
  ].join('\n');
  const organization = await findOrganization(tx.db, endpoint.organization_id);
  const audience = await repo.endpointAudience(tx.db, endpoint);
  const notified = audience.map((user) => user.id);
  await notifyAccounts(tx, tx.db, {
    organization: { id: organization.id, slug: organization.slug, name: organization.name },
    userIds: notified,
    reason: 'endpoint_disabled',
    text: `Webhook endpoint ${endpoint.id} was disabled`,
    body,
    data: {
      endpoint_id: endpoint.id,
      url: endpoint.url,
      last_error: lastError,
      link: `/settings/webhooks/${endpoint.id}`,
    },
    projectId: endpoint.project_id,
  });
  return { endpointId: endpoint.id, url: endpoint.url, organizationId: endpoint.organization_id, notified };
}

/** After the transaction committed: the log line (the e-mails go out with the other notification e-mails). */
export function announceDisabled(log: FastifyBaseLogger, notice: DisabledNotice): void {
  log.warn(
    {
      endpoint_id: notice.endpointId,
      organization_id: notice.organizationId,
      url: notice.url,
      notified_users: notice.notified,
    },
    `webhook endpoint disabled after ${DISABLE_AFTER_ABANDONED} consecutive abandoned deliveries`,
  );
}

/** Operator view of the notifications people received, newest first (`tasktracker notifications list`). */
export async function listNotifications(ctx: AppContext, options: { org?: string; limit: number }) {
  const rows = await repo.recentNotifications(ctx.db, options);
  return { notifications: rows.map((row) => ({ ...row, data: JSON.parse(row.data) as unknown })) };
}
