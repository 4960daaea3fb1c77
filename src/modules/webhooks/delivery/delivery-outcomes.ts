/**
 * Recording outcomes: its own short unit of work after the attempt. An outcome is written
 * only if the lease is still the worker's; the delivery is then delivered, rescheduled or
 * abandoned, and an endpoint with too many consecutive abandoned deliveries is disabled (its
 * notifications recorded with it, its log line written after the commit).
 */
import type { FastifyBaseLogger } from 'fastify';
import { isoFromMs } from '../../../clock.ts';
import type { AppContext } from '../../../context.ts';
import type { Executor } from '../../../db/database.ts';
import { inTransaction, type Tx } from '../../../db/unit-of-work.ts';
import * as queue from './delivery-queue.repository.ts';
import { DISABLE_AFTER_ABANDONED, isSuccessStatus, nextAttemptAt } from './delivery-policy.ts';
import { announceDisabled, type DisabledNotice, disableForFailures } from '../notifications.ts';
import type { AttemptOutcome } from './delivery-attempt.ts';
import type { ClaimedAttempt } from './delivery-claims.ts';

export interface FinishedAttempt {
  claim: ClaimedAttempt;
  result: AttemptOutcome;
}

/** Outcomes written per record transaction at most. */
export const RECORD_BATCH = 500;

type DeliveryStatus = 'delivered' | 'pending' | 'failed';

/** Writes the outcome if the lease is still ours; abandons, resets or disables as the delivery policy says. */
export async function recordOutcome(
  ctx: AppContext,
  log: FastifyBaseLogger,
  claim: ClaimedAttempt,
  result: AttemptOutcome,
): Promise<void> {
  await recordOutcomes(ctx, log, [{ claim, result }]);
}

/** Writes several outcomes in one transaction, in order, each exactly as `recordOutcome` would. */
export async function recordOutcomes(
  ctx: AppContext,
  log: FastifyBaseLogger,
  finished: FinishedAttempt[],
): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const now = tx.clock.nowIso();
    const written = await writeDeliveries(tx.db, finished, tx.clock.nowMs(), now);
    // A delivery resets its endpoint's count of consecutive abandoned deliveries. The resets are
    // written together at the end, or before a later abandonment of the same endpoint counts.
    const resets = new Set<number>();
    for (const [i, { claim, result }] of finished.entries()) {
      const status = written[i];
      if (status === null) {
        // Another worker took the delivery over after our lease expired and marked this attempt lost.
        log.warn(
          { delivery_id: claim.deliveryId, attempt: claim.attemptNumber },
          'delivery lease lost before the outcome was recorded',
        );
        continue;
      }
      await queue.finishAttempt(tx.db, claim.attemptId, result, now);
      if (claim.isTest || status === 'pending') continue;
      if (status === 'delivered') {
        resets.add(claim.endpointId);
        continue;
      }
      if (resets.delete(claim.endpointId)) await queue.resetFailureCounts(tx.db, [claim.endpointId]);
      const notice = await countAbandoned(tx, claim.endpointId, result.error);
      // The log line waits for the commit: it must not claim a disabling that rolled back.
      if (notice) tx.afterCommit(() => announceDisabled(log, notice));
    }
    if (resets.size > 0) await queue.resetFailureCounts(tx.db, [...resets]);
  });
}

/** Writes the delivery rows whose lease is still ours: the status written for each, null where the lease was lost. */
async function writeDeliveries(
  db: Executor,
  finished: FinishedAttempt[],
  nowMs: number,
  now: string,
): Promise<Array<DeliveryStatus | null>> {
  const written: Array<DeliveryStatus | null> = finished.map(() => null);
  // Successes alike (same lease, attempt number and status code) share one UPDATE.
  const alike = new Map<string, number[]>();
  for (const [i, { claim, result }] of finished.entries()) {
    if (result.error === null && isSuccessStatus(result.status)) {
      const key = `${claim.leaseToken} ${claim.attemptNumber} ${result.status}`;
      const indexes = alike.get(key);
      if (indexes) indexes.push(i);
      else alike.set(key, [i]);
      continue;
    }
    const next = nextAttemptAt(claim.attemptNumber, nowMs);
    const stillOurs = await queue.rescheduleLeasedDelivery(db, {
      id: claim.deliveryId,
      leaseToken: claim.leaseToken,
      attempts: claim.attemptNumber,
      nextAttemptAt: next === null ? null : isoFromMs(next),
      responseStatus: result.status,
      error: result.error,
    });
    if (stillOurs) written[i] = next === null ? 'failed' : 'pending';
  }
  for (const indexes of alike.values()) {
    const { claim, result } = finished[indexes[0]!]!;
    for (let from = 0; from < indexes.length; from += RECORD_BATCH) {
      const part = indexes.slice(from, from + RECORD_BATCH);
      const ids = part.map((i) => finished[i]!.claim.deliveryId);
      const updated = new Set(
        await queue.markLeasedDelivered(
          db,
          { ids, leaseToken: claim.leaseToken, attempts: claim.attemptNumber, responseStatus: result.status },
          now,
        ),
      );
      for (const i of part) if (updated.has(finished[i]!.claim.deliveryId)) written[i] = 'delivered';
    }
  }
  return written;
}

/** Counts an abandoned delivery against its endpoint; disables the endpoint at the limit. */
async function countAbandoned(tx: Tx, endpointId: number, lastError: string | null): Promise<DisabledNotice | null> {
  const counter = await queue.countAbandonedDelivery(tx.db, endpointId);
  if (!counter || counter.enabled !== 1 || counter.consecutive_failures < DISABLE_AFTER_ABANDONED) return null;
  return disableForFailures(tx, endpointId, lastError);
}
