import { sql } from 'kysely';
import type { Dialect, Executor } from '../../../db/database.ts';

/**
 * The delivery worker's SQL (src/worker/): leasing due deliveries with their in-flight attempt
 * rows, and writing the outcome of an attempt only while the lease is still the worker's.
 */

export interface LeaseRequest {
  now: string;
  /** When the lease runs out and the delivery is due again. */
  lockedUntil: string;
  leaseToken: string;
  limit: number;
  /** Endpoints whose deliveries are left out of this lease. */
  skipEndpoints: number[];
}

/**
 * Leases up to `limit` due deliveries of enabled endpoints, oldest first. PostgreSQL skips rows
 * another worker holds (FOR UPDATE SKIP LOCKED); on SQLite the single writer serialises the
 * UPDATE. The lease is re-checked on the row itself, so a lease that waited on a lock never
 * takes a row someone else just leased.
 */
export function leaseDueDeliveries(db: Executor, dialect: Dialect, lease: LeaseRequest) {
  const { now, skipEndpoints } = lease;
  let due = db
    .selectFrom('webhook_deliveries as d')
    .select('d.id')
    // A literal, so both databases match the partial index of pending deliveries (migration 0035).
    .where('d.status', '=', sql.lit('pending'))
    .where('d.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<=', now)]))
    // A disabled endpoint's deliveries wait; re-enabling resumes them.
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('webhook_endpoints as e')
          .select('e.id')
          .whereRef('e.id', '=', 'd.endpoint_id')
          .where('e.enabled', '=', 1),
      ),
    )
    .$if(skipEndpoints.length > 0, (qb) => qb.where('d.endpoint_id', 'not in', skipEndpoints))
    .orderBy('d.next_attempt_at')
    .orderBy('d.id')
    .limit(lease.limit);
  if (dialect === 'postgres') due = due.forUpdate().skipLocked();
  return db
    .updateTable('webhook_deliveries')
    .set({ locked_until: lease.lockedUntil, lease_token: lease.leaseToken })
    .where('id', 'in', due)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .returning(['id', 'attempts', 'endpoint_id', 'outbox_id', 'event_id', 'is_test'])
    .execute();
}

/** Attempts of these deliveries still without an outcome: their worker stopped before recording one. */
export async function markUnfinishedAttemptsLost(
  db: Executor,
  deliveryIds: number[],
  now: string,
  error: string,
): Promise<void> {
  await db
    .updateTable('webhook_attempts')
    .set({ finished_at: now, error })
    .where('delivery_id', 'in', deliveryIds)
    .where('finished_at', 'is', null)
    .execute();
}

/** In-flight attempt rows, one per leased delivery. */
export function insertAttempts(db: Executor, attempts: Array<{ deliveryId: number; number: number }>, now: string) {
  return db
    .insertInto('webhook_attempts')
    .values(
      attempts.map((a) => ({
        delivery_id: a.deliveryId,
        number: a.number,
        started_at: now,
        finished_at: null,
        duration_ms: null,
        response_status: null,
        error: null,
        response_body: null,
      })),
    )
    .returning(['id', 'delivery_id'])
    .execute();
}

/** Where and with which secret each endpoint is called. */
export function endpointTargets(db: Executor, endpointIds: number[]) {
  return db
    .selectFrom('webhook_endpoints')
    .select(['id', 'url', 'format', 'secret_ciphertext'])
    .where('id', 'in', endpointIds)
    .execute();
}

/** The stored envelopes of outbox events: the exact bytes signed and sent. */
export function outboxEnvelopes(db: Executor, outboxIds: number[]) {
  return db.selectFrom('event_outbox').select(['id', 'envelope']).where('id', 'in', outboxIds).execute();
}

export interface AttemptResult {
  status: number | null;
  error: string | null;
  body: string | null;
  durationMs: number;
}

export async function finishAttempt(
  db: Executor,
  attemptId: number,
  result: AttemptResult,
  now: string,
): Promise<void> {
  await db
    .updateTable('webhook_attempts')
    .set({
      finished_at: now,
      duration_ms: result.durationMs,
      response_status: result.status,
      error: result.error,
      response_body: result.body,
    })
    .where('id', '=', attemptId)
    .execute();
}

/** A failed attempt: the delivery waits for its next attempt (`nextAttemptAt`) or, with none left, fails. True if the lease was still ours. */
export async function rescheduleLeasedDelivery(
  db: Executor,
  delivery: {
    id: number;
    leaseToken: string;
    attempts: number;
    nextAttemptAt: string | null;
    responseStatus: number | null;
    error: string | null;
  },
): Promise<boolean> {
  const updated = await db
    .updateTable('webhook_deliveries')
    .set({
      status: delivery.nextAttemptAt === null ? 'failed' : 'pending',
      attempts: delivery.attempts,
      next_attempt_at: delivery.nextAttemptAt,
      locked_until: null,
      lease_token: null,
      response_status: delivery.responseStatus,
      error: delivery.error,
      delivered_at: null,
    })
    .where('id', '=', delivery.id)
    .where('lease_token', '=', delivery.leaseToken)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** Successes alike (one lease, attempt number and status): the ids whose lease was still ours. */
export async function markLeasedDelivered(
  db: Executor,
  deliveries: { ids: number[]; leaseToken: string; attempts: number; responseStatus: number | null },
  now: string,
): Promise<number[]> {
  const rows = await db
    .updateTable('webhook_deliveries')
    .set({
      status: 'delivered',
      attempts: deliveries.attempts,
      next_attempt_at: null,
      locked_until: null,
      lease_token: null,
      response_status: deliveries.responseStatus,
      error: null,
      delivered_at: now,
    })
    .where('id', 'in', deliveries.ids)
    .where('lease_token', '=', deliveries.leaseToken)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** A delivery went through: the endpoints' counts of consecutive abandoned deliveries start again. */
export async function resetFailureCounts(db: Executor, endpointIds: number[]): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ consecutive_failures: 0 })
    .where('id', 'in', endpointIds)
    .where('consecutive_failures', '!=', 0)
    .execute();
}

/** Counts one more abandoned delivery against the endpoint: its new count and whether it is enabled. */
export function countAbandonedDelivery(db: Executor, endpointId: number) {
  return db
    .updateTable('webhook_endpoints')
    .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
    .where('id', '=', endpointId)
    .returning(['consecutive_failures', 'enabled'])
    .executeTakeFirst();
}
