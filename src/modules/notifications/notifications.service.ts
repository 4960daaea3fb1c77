import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { invalid, notFound } from '../../http/errors.ts';
import type { PageRequest, Pagination } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import type {
  NotificationJson,
  NotificationPreferencesJson,
  NotificationPreferencesPatchJson,
} from './notifications.schemas.ts';
import * as repo from './notifications.repository.ts';
import { defaultDelivery, isReason, REASONS, type Reason } from './reasons.ts';
import { isUnsubscribeToken } from './unsubscribe.ts';

/**
 * The caller's own inbox and choices (docs/api/notifications.md). No scope is needed: it is
 * the caller's own account. A token restricted to projects sees only the notifications about
 * tasks of those projects, and those about no task.
 */
function filterOf(principal: Principal, query: { unread?: boolean; reason?: string }): repo.InboxFilter {
  let reasons: string[] | null = null;
  if (query.reason !== undefined) {
    reasons = query.reason.split(',');
    const unknown = reasons.filter((reason) => !isReason(reason));
    if (unknown.length) throw invalid({ reason: `unknown reason ${unknown.join(', ')}; one of ${REASONS.join(', ')}` });
  }
  return {
    userId: principal.userId,
    projects: principal.projectRestriction,
    unread: query.unread === true,
    reasons,
  };
}

export async function listNotifications(
  ctx: AppContext,
  principal: Principal,
  query: { unread?: boolean; reason?: string },
  page: PageRequest,
): Promise<{ data: NotificationJson[]; pagination: Pagination }> {
  const { rows, pagination } = await repo.inboxPage(ctx.db, filterOf(principal, query), page);
  const data = rows.map((r) => ({
    id: r.id,
    reason: r.reason as Reason,
    created_at: r.created_at,
    read_at: r.read_at,
    actor: r.actor_id === null ? null : { id: r.actor_id, name: r.actor_name ?? '' },
    task: r.task_key === null ? null : { key: r.task_key, title: r.task_title ?? '' },
    comment: r.comment_id,
    text: r.subject,
  }));
  return { data, pagination };
}

export async function markNotificationsRead(
  tx: Tx,
  principal: Principal,
  body: { ids: number[] } | { all: true },
): Promise<{ read: number }> {
  const ids = 'ids' in body ? body.ids : null;
  return { read: await repo.markRead(tx.db, filterOf(principal, {}), ids, tx.clock.nowIso()) };
}

export async function getPreferences(ctx: AppContext | Tx, principal: Principal): Promise<NotificationPreferencesJson> {
  const chosen = new Map(
    (await repo.preferencesOf(ctx.db, [principal.userId])).map((p) => [
      p.reason,
      { in_app: p.in_app === 1, email: p.email === 1 },
    ]),
  );
  return {
    reasons: Object.fromEntries(REASONS.map((reason) => [reason, chosen.get(reason) ?? defaultDelivery(reason)])),
  } as NotificationPreferencesJson;
}

export async function updatePreferences(
  tx: Tx,
  principal: Principal,
  patch: NotificationPreferencesPatchJson,
): Promise<NotificationPreferencesJson> {
  const current = await getPreferences(tx, principal);
  const rows = Object.entries(patch.reasons).flatMap(([reason, change]) => {
    if (!change || !isReason(reason)) return [];
    const was = current.reasons[reason]!;
    return [
      {
        user_id: principal.userId,
        reason,
        in_app: (change.in_app ?? was.in_app) ? 1 : 0,
        email: (change.email ?? was.email) ? 1 : 0,
      },
    ];
  });
  if (rows.length) await repo.upsertPreferences(tx.db, rows);
  return getPreferences(tx, principal);
}

/** A link that is not one of ours answers 404, whatever is wrong with it. */
export async function checkUnsubscribeLink(ctx: AppContext, userId: number, reason: Reason, token: string) {
  if (!(await isUnsubscribeToken(ctx, userId, reason, token))) throw notFound('Unsubscribe link');
}

/** Turns e-mail off for one reason of one account, from the link in its e-mail; in-app stays as it was. */
export async function unsubscribe(tx: Tx, userId: number, reason: Reason, token: string): Promise<void> {
  await checkUnsubscribeLink(tx, userId, reason, token);
  const chosen = (await repo.preferencesOf(tx.db, [userId])).find((p) => p.reason === reason);
  const inApp = chosen ? chosen.in_app : defaultDelivery(reason).in_app ? 1 : 0;
  await repo.upsertPreferences(tx.db, [{ user_id: userId, reason, in_app: inApp, email: 0 }]);
}
