import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { ApiError, foundOr404 } from '../../http/errors.ts';
import type { Principal } from '../../identity/principal.ts';
import { authorizeReplayTarget, endpointFor } from '../../policy/index.ts';
import { visibleOne } from '../../policy/visible-one.ts';
import { visiblePages } from '../../policy/visible-pages.ts';
import { presentAttempt, presentDelivery } from './webhooks.presenter.ts';
import * as repo from './webhooks.repository.ts';

export const listDeliveries = visiblePages(repo.deliveriesPage, presentDelivery);

export const getDelivery = visibleOne('Webhook delivery', repo.findVisibleDelivery, presentDelivery).read;

export type DeliveryJson = ReturnType<typeof presentDelivery>;

/** The delivery with every attempt, oldest first. */
export async function getDeliveryDetail(ctx: AppContext, principal: Principal, id: number) {
  const delivery = await getDelivery(ctx, principal, id);
  const attempts = await repo.attemptsOfDelivery(ctx.db, id);
  return { ...delivery, attempt_history: attempts.map(presentAttempt) };
}

/**
 * Replay: a new delivery of the same stored envelope bytes, so the event id is the same and a
 * consumer deduplicating on it sees the same event. Allowed once the original is delivered or
 * failed; replays count toward auto-disable like any delivery (tests stay tests).
 */
export async function replayDelivery(tx: Tx, principal: Principal, id: number): Promise<DeliveryJson> {
  const original = await foundOr404(repo.findVisibleDelivery(tx.db, principal, id), 'Webhook delivery');
  // Permission before state: a caller who may not replay learns nothing about the delivery's progress.
  const endpoint = await endpointFor(tx.db, principal, original.endpoint_id, 'manage');
  await authorizeReplayTarget(tx.db, endpoint, original.event_project_id);
  if (original.status === 'pending') {
    throw new ApiError(
      'DELIVERY_PENDING',
      'The delivery is still being attempted; replay it once it is delivered or failed.',
      {
        status: original.status,
      },
    );
  }
  if (endpoint.enabled !== 1)
    throw new ApiError('ENDPOINT_DISABLED', 'The endpoint is disabled; re-enable it before replaying.');
  const replayId = await repo.insertDelivery(tx.db, {
    endpoint_id: original.endpoint_id,
    organization_id: principal.organizationId,
    outbox_id: original.outbox_id,
    event_id: original.event_id,
    event_type: original.event_type,
    is_test: original.is_test,
    replay_of: original.id,
    now: tx.clock.nowIso(),
  });
  return getDelivery(tx, principal, replayId);
}
