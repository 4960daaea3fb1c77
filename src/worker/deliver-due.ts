/**
 * The delivery worker: claim due deliveries, POST each once, record the outcome.
 *
 * Three short transactions per attempt and none across the HTTP call:
 * 1. claim: due rows get a lease (`locked_until`, `lease_token`) and an in-flight attempt row.
 *    PostgreSQL skips rows another worker holds (FOR UPDATE SKIP LOCKED); on SQLite the claim
 *    is one conditional UPDATE, which the single writer serialises.
 * 2. the attempt itself (no transaction).
 * 3. record: the outcome is written only if the lease is still ours.
 * Claims and records are batched: one claim takes many rows, and outcomes that finish while a
 * record transaction runs are written together by the next one.
 * A worker that dies between 1 and 3 leaves a leased row; once the lease passes it is due
 * again, the orphaned attempt row is marked lost, and the attempt is re-run with the same
 * number. Nothing is lost and nothing stays pending forever.
 */
import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { computeSignature } from '@tasktracker/webhooks';
import type { FastifyBaseLogger } from 'fastify';
import { isoFromMs } from '../clock.ts';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/database.ts';
import { DISABLE_AFTER_ABANDONED, failureFor, isSuccessStatus, MAX_RESPONSE_BYTES, nextAttemptAt } from '../modules/webhooks/delivery-policy.ts';
import { webhookIo } from '../modules/webhooks/io.ts';
import { announceDisabled, type DisabledNotice, disableForFailures } from '../modules/webhooks/notifications.ts';
import { decryptSecret, secretKey } from '../crypto/secret-box.ts';
import { checkTarget, UnsafeTargetError } from '../modules/webhooks/url-guard.ts';
import { postWebhook, secureContextFor } from './post-webhook.ts';

export const LOST_ATTEMPT_ERROR = 'lost: the worker stopped before recording an outcome; the attempt was re-run after its lease expired';

export interface ClaimedAttempt {
  deliveryId: number;
  attemptId: number;
  attemptNumber: number;
  leaseToken: string;
  endpointId: number;
  url: string;
  secretCiphertext: string;
  eventId: string;
  isTest: boolean;
  /** The stored envelope: these exact bytes are signed and sent. */
  envelope: string;
}

export interface AttemptOutcome {
  status: number | null;
  error: string | null;
  body: string | null;
  durationMs: number;
}

/** Claims up to `limit` due deliveries, oldest first, leaving out those of `skipEndpoints`. */
export async function claimDueDeliveries(ctx: AppContext, limit: number, skipEndpoints: number[] = []): Promise<ClaimedAttempt[]> {
  return ctx.db.transaction().execute(async (trx) => {
    const nowMs = ctx.clock.nowMs();
    const now = ctx.clock.nowIso();
    const leaseToken = randomUUID();
    let due = trx
      .selectFrom('webhook_deliveries as d')
      .select('d.id')
      .where('d.status', '=', 'pending')
      .where('d.next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<=', now)]))
      // A disabled endpoint's deliveries wait; re-enabling resumes them.
      .where((eb) =>
        eb.exists(eb.selectFrom('webhook_endpoints as e').select('e.id').whereRef('e.id', '=', 'd.endpoint_id').where('e.enabled', '=', 1)),
      )
      .$if(skipEndpoints.length > 0, (qb) => qb.where('d.endpoint_id', 'not in', skipEndpoints))
      .orderBy('d.next_attempt_at')
      .orderBy('d.id')
      .limit(limit);
    if (ctx.dialect === 'postgres') due = due.forUpdate().skipLocked();

    const claimed = await trx
      .updateTable('webhook_deliveries')
      .set({ locked_until: isoFromMs(nowMs + ctx.config.webhooks.leaseMs), lease_token: leaseToken })
      .where('id', 'in', due)
      // Re-checked on the row itself, so a claim that waited on a lock never takes a row someone else just claimed.
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .returning(['id', 'attempts', 'endpoint_id', 'outbox_id', 'event_id', 'is_test'])
      .execute();
    if (claimed.length === 0) return [];
    const ids = claimed.map((c) => c.id);

    await trx
      .updateTable('webhook_attempts')
      .set({ finished_at: now, error: LOST_ATTEMPT_ERROR })
      .where('delivery_id', 'in', ids)
      .where('finished_at', 'is', null)
      .execute();
    const attempts = await trx
      .insertInto('webhook_attempts')
      .values(
        claimed.map((c) => ({
          delivery_id: c.id,
          number: c.attempts + 1,
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
    const endpoints = await trx
      .selectFrom('webhook_endpoints')
      .select(['id', 'url', 'secret_ciphertext'])
      .where('id', 'in', [...new Set(claimed.map((c) => c.endpoint_id))])
      .execute();
    const envelopes = await trx
      .selectFrom('event_outbox')
      .select(['id', 'envelope'])
      .where('id', 'in', [...new Set(claimed.map((c) => c.outbox_id))])
      .execute();

    const attemptOf = new Map(attempts.map((a) => [a.delivery_id, a.id]));
    const endpointOf = new Map(endpoints.map((e) => [e.id, e]));
    const envelopeOf = new Map(envelopes.map((e) => [e.id, e.envelope]));
    return claimed
      .sort((a, b) => a.id - b.id)
      .map((c) => {
        const endpoint = endpointOf.get(c.endpoint_id)!;
        return {
          deliveryId: c.id,
          attemptId: attemptOf.get(c.id)!,
          attemptNumber: c.attempts + 1,
          leaseToken,
          endpointId: c.endpoint_id,
          url: endpoint.url,
          secretCiphertext: endpoint.secret_ciphertext,
          eventId: c.event_id,
          isTest: c.is_test === 1,
          envelope: envelopeOf.get(c.outbox_id)!,
        };
      });
  });
}

const SECRET_CACHE_SIZE = 1000;

/** Decrypts an endpoint's signing secret once, not per attempt (a new secret is a new ciphertext). */
async function signingSecret(ctx: AppContext, ciphertext: string): Promise<string> {
  const cache = ctx.state.signingSecrets;
  let secret = cache.get(ciphertext);
  if (secret === undefined) {
    secret = decryptSecret(await secretKey(ctx), ciphertext);
    if (cache.size >= SECRET_CACHE_SIZE) cache.clear();
    cache.set(ciphertext, secret);
  }
  return secret;
}

/**
 * Makes one attempt: decrypt the secret, check the URL again (every resolved address), sign
 * the stored bytes with a fresh timestamp, POST to the checked address. The whole attempt,
 * DNS included, shares one total deadline.
 */
export async function attemptDelivery(ctx: AppContext, claim: ClaimedAttempt): Promise<AttemptOutcome> {
  const io = webhookIo(ctx);
  const timeoutMs = ctx.config.webhooks.attemptTimeoutMs;
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  const outcome = (status: number | null, error: string | null, body: string | null): AttemptOutcome => ({
    status,
    error,
    body,
    durationMs: Math.round(performance.now() - started),
  });

  let secret: string;
  try {
    secret = await signingSecret(ctx, claim.secretCiphertext);
  } catch {
    return outcome(null, 'the signing secret cannot be decrypted: WEBHOOK_SECRET_KEY differs from the key it was stored with', null);
  }
  try {
    const target = await checkTarget(claim.url, { allowPrivate: ctx.config.webhooks.allowPrivateTargets, allowedPorts: ctx.config.webhooks.allowedPorts, resolve: io.resolve, signal });
    const timestamp = String(Math.floor(ctx.clock.nowMs() / 1000));
    const body = Buffer.from(claim.envelope, 'utf8');
    const secureContext = target.url.protocol === 'https:' ? secureContextFor(io.ca) : undefined;
    const result = await postWebhook(
      target,
      body,
      {
        'content-type': 'application/json',
        'user-agent': 'tasktracker-webhooks/1',
        'x-service-signature': computeSignature(secret, timestamp, body),
        'x-service-timestamp': timestamp,
        'x-service-event-id': claim.eventId,
        'x-service-delivery-id': String(claim.deliveryId),
      },
      { signal, agent: ctx.state.connectionPools.agentFor(target, secureContext), maxBodyBytes: MAX_RESPONSE_BYTES, timeoutMs },
    );
    const error = result.error ?? (isSuccessStatus(result.status) ? null : failureFor(result.status!));
    return outcome(result.status, error, result.body);
  } catch (error) {
    if (signal.aborted) return outcome(null, `timeout: no answer within ${timeoutMs} ms`, null);
    if (error instanceof UnsafeTargetError) return outcome(null, `refused before connecting: the URL ${error.message}`, null);
    return outcome(null, String(error), null);
  }
}

export interface FinishedAttempt {
  claim: ClaimedAttempt;
  result: AttemptOutcome;
}

/** Writes the outcome if the lease is still ours; abandons, resets or disables as the spec says. */
export async function recordOutcome(ctx: AppContext, log: FastifyBaseLogger, claim: ClaimedAttempt, result: AttemptOutcome): Promise<void> {
  await recordOutcomes(ctx, log, [{ claim, result }]);
}

/** Writes several outcomes in one transaction, in order, each exactly as `recordOutcome` would. */
export async function recordOutcomes(ctx: AppContext, log: FastifyBaseLogger, finished: FinishedAttempt[]): Promise<void> {
  const notices = await ctx.db.transaction().execute(async (trx) => {
    const nowMs = ctx.clock.nowMs();
    const now = ctx.clock.nowIso();
    const written = await writeDeliveries(trx, finished, nowMs, now);
    const notices: DisabledNotice[] = [];
    // A delivery resets its endpoint's count of consecutive abandoned deliveries. The resets are
    // written together at the end, or before a later abandonment of the same endpoint counts.
    const resets = new Set<number>();
    const writeResets = async (endpointIds: number[]) => {
      if (endpointIds.length === 0) return;
      await trx.updateTable('webhook_endpoints').set({ consecutive_failures: 0 }).where('id', 'in', endpointIds).where('consecutive_failures', '!=', 0).execute();
      endpointIds.forEach((id) => resets.delete(id));
    };
    for (const [i, { claim, result }] of finished.entries()) {
      const status = written[i];
      if (status === null) {
        // Another worker took the delivery over after our lease expired and marked this attempt lost.
        log.warn({ delivery_id: claim.deliveryId, attempt: claim.attemptNumber }, 'delivery lease lost before the outcome was recorded');
        continue;
      }
      await trx
        .updateTable('webhook_attempts')
        .set({ finished_at: now, duration_ms: result.durationMs, response_status: result.status, error: result.error, response_body: result.body })
        .where('id', '=', claim.attemptId)
        .execute();
      if (claim.isTest || status === 'pending') continue;
      if (status === 'delivered') {
        resets.add(claim.endpointId);
        continue;
      }
      if (resets.has(claim.endpointId)) await writeResets([claim.endpointId]);
      const notice = await countAbandoned(trx, claim.endpointId, now, result.error);
      if (notice) notices.push(notice);
    }
    await writeResets([...resets]);
    return notices;
  });
  for (const notice of notices) await announceDisabled(ctx, log, notice);
}

type DeliveryStatus = 'delivered' | 'pending' | 'failed';

/** Writes the delivery rows whose lease is still ours: the status written for each, null where the lease was lost. */
async function writeDeliveries(trx: Executor, finished: FinishedAttempt[], nowMs: number, now: string): Promise<Array<DeliveryStatus | null>> {
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
    const status = next === null ? 'failed' : 'pending';
    const updated = await trx
      .updateTable('webhook_deliveries')
      .set({
        status,
        attempts: claim.attemptNumber,
        next_attempt_at: next === null ? null : isoFromMs(next),
        locked_until: null,
        lease_token: null,
        response_status: result.status,
        error: result.error,
        delivered_at: null,
      })
      .where('id', '=', claim.deliveryId)
      .where('lease_token', '=', claim.leaseToken)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) written[i] = status;
  }
  for (const indexes of alike.values()) {
    const { claim, result } = finished[indexes[0]!]!;
    for (let from = 0; from < indexes.length; from += RECORD_BATCH) {
      const part = indexes.slice(from, from + RECORD_BATCH);
      const rows = await trx
        .updateTable('webhook_deliveries')
        .set({
          status: 'delivered',
          attempts: claim.attemptNumber,
          next_attempt_at: null,
          locked_until: null,
          lease_token: null,
          response_status: result.status,
          error: null,
          delivered_at: now,
        })
        .where('id', 'in', part.map((i) => finished[i]!.claim.deliveryId))
        .where('lease_token', '=', claim.leaseToken)
        .returning('id')
        .execute();
      const updated = new Set(rows.map((row) => row.id));
      for (const i of part) if (updated.has(finished[i]!.claim.deliveryId)) written[i] = 'delivered';
    }
  }
  return written;
}

/** Counts an abandoned delivery against its endpoint; disables the endpoint at the limit. */
async function countAbandoned(trx: Executor, endpointId: number, now: string, lastError: string | null): Promise<DisabledNotice | null> {
  const counter = await trx
    .updateTable('webhook_endpoints')
    .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
    .where('id', '=', endpointId)
    .returning(['consecutive_failures', 'enabled'])
    .executeTakeFirst();
  if (!counter || counter.enabled !== 1 || counter.consecutive_failures < DISABLE_AFTER_ABANDONED) return null;
  return disableForFailures(trx, endpointId, now, lastError);
}

/** Attempts at one endpoint running at once; more wait in memory (the claim holds their lease). */
export const ENDPOINT_CONCURRENCY = 32;

/**
 * Endpoints with this many claimed, unfinished attempts are left out of the next claim. With a
 * claim of at most 50 more, an endpoint has at most 150 / 32 = 5 rounds of 5 s attempts
 * waiting: 25 s, inside the 60 s lease, so a slow endpoint's queue never outlives its leases.
 */
const ENDPOINT_BACKLOG = 100;

/** Outcomes written per record transaction at most. */
const RECORD_BATCH = 500;

/**
 * Runs claimed attempts as a pipeline: attempts start as soon as they are claimed (at most
 * ENDPOINT_CONCURRENCY per endpoint, so one slow receiver does not hold up the others), and each
 * outcome is queued for the next record transaction, which writes every outcome that finished
 * meanwhile. A pass claims more while earlier attempts are still running.
 */
export class DeliveryPump {
  private inFlight = 0;
  private readonly endpoints = new Map<number, { running: number; waiting: ClaimedAttempt[] }>();
  private roomWaiters: Array<() => void> = [];
  private idleWaiters: Array<() => void> = [];
  private outcomes: Array<FinishedAttempt & { recorded: () => void }> = [];
  private recording = false;
  /**
   * The last claim came back short while busy endpoints were left out, so their due deliveries
   * may be waiting: the next pass claims again once half a backlog has finished.
   */
  backlogged = false;
  private finishedSinceClaim = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    private readonly batch: number,
    /** Claimed attempts not yet recorded, at most (plus one batch). */
    private readonly maxInFlight = 4 * batch,
  ) {}

  /** Waits for room, claims up to one batch and starts it; resolves with the number claimed. */
  async pass(): Promise<number> {
    // Not claiming again at once when backlogged: each claim scans the busy endpoints' due rows
    // only to leave them out.
    while (this.inFlight >= this.maxInFlight || (this.backlogged && this.inFlight > 0 && this.finishedSinceClaim < ENDPOINT_BACKLOG / 2)) {
      await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    }
    this.finishedSinceClaim = 0;
    const busy = [...this.endpoints].filter(([, e]) => e.running + e.waiting.length >= ENDPOINT_BACKLOG).map(([id]) => id);
    const claims = await claimDueDeliveries(this.ctx, this.batch, busy);
    for (const claim of claims) this.start(claim);
    this.backlogged = claims.length < this.batch && busy.length > 0;
    return claims.length;
  }

  /** Resolves when every claimed attempt has run and its outcome is recorded. */
  async drain(): Promise<void> {
    while (this.inFlight > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private start(claim: ClaimedAttempt): void {
    this.inFlight += 1;
    let endpoint = this.endpoints.get(claim.endpointId);
    if (!endpoint) {
      endpoint = { running: 0, waiting: [] };
      this.endpoints.set(claim.endpointId, endpoint);
    }
    if (endpoint.running >= ENDPOINT_CONCURRENCY) endpoint.waiting.push(claim);
    else void this.attempt(claim, endpoint);
  }

  private async attempt(first: ClaimedAttempt, endpoint: { running: number; waiting: ClaimedAttempt[] }): Promise<void> {
    endpoint.running += 1;
    for (let claim: ClaimedAttempt | undefined = first; claim; claim = endpoint.waiting.shift()) {
      // attemptDelivery turns every failure into an outcome; this keeps the pump's count right regardless.
      const result = await attemptDelivery(this.ctx, claim).catch((error: unknown) => ({ status: null, error: String(error), body: null, durationMs: 0 }));
      void this.record({ claim, result });
    }
    endpoint.running -= 1;
    if (endpoint.running === 0) this.endpoints.delete(first.endpointId);
  }

  private async record(finished: FinishedAttempt): Promise<void> {
    await new Promise<void>((recorded) => {
      this.outcomes.push({ ...finished, recorded });
      if (!this.recording) void this.writeOutcomes();
    });
    this.inFlight -= 1;
    this.finishedSinceClaim += 1;
    this.roomWaiters.splice(0).forEach((wake) => wake());
    if (this.inFlight === 0) this.idleWaiters.splice(0).forEach((wake) => wake());
  }

  private async writeOutcomes(): Promise<void> {
    this.recording = true;
    // Outcomes of attempts finishing in the same turn share the first transaction.
    await nextTurn();
    while (this.outcomes.length > 0) {
      const batch = this.outcomes.splice(0, RECORD_BATCH);
      await this.recordBatch(batch);
      batch.forEach((f) => f.recorded());
    }
    this.recording = false;
  }

  private async recordBatch(batch: FinishedAttempt[]): Promise<void> {
    try {
      await recordOutcomes(this.ctx, this.log, batch);
    } catch (err) {
      // One outcome the database refuses must not take the others down with it.
      if (batch.length > 1) {
        for (const finished of batch) await this.recordBatch([finished]);
        return;
      }
      // Not recorded: the lease runs out and the attempt is made again (at least once).
      this.log.error({ err, delivery_id: batch[0]!.claim.deliveryId }, 'recording a delivery outcome failed');
    }
  }
}

/** One pass: claim up to `limit` due deliveries, attempt them, record every outcome. */
export async function deliverDue(ctx: AppContext, log: FastifyBaseLogger, limit = 25): Promise<number> {
  const pump = new DeliveryPump(ctx, log, limit);
  const claimed = await pump.pass();
  await pump.drain();
  return claimed;
}
