import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { foundOr404 } from '../../http/errors.ts';
import type { Principal } from '../../identity/principal.ts';
import * as repo from '../webhooks/notifications.repository.ts';

/** One's own notifications in the console (an endpoint one is responsible for was disabled), newest first. */
export async function listOwnNotifications(ctx: AppContext, principal: Principal) {
  const rows = await repo.notificationsOf(ctx.db, principal.userId, 200);
  return rows.map((r) => {
    const data = JSON.parse(r.data) as { endpoint_id?: number };
    return {
      id: r.id,
      kind: r.kind,
      message: r.subject,
      endpoint: data.endpoint_id ?? null,
      created_at: r.created_at,
      read_at: r.read_at,
    };
  });
}

export async function markNotificationRead(tx: Tx, principal: Principal, id: number) {
  const row = await foundOr404(repo.findOwnNotification(tx.db, principal.userId, id), 'Notification');
  if (!row.read_at) await repo.markNotificationRead(tx.db, id, tx.clock.nowIso());
}
