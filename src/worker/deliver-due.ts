/**
 * The delivery worker: claim due deliveries, POST each once, record the outcome.
 *
 * Three short transactions per attempt and none across the HTTP call:
 * 1. claim: due rows get a lease (`locked_until`, `lease_token`) and an in-flight attempt row.
 *    PostgreSQL skips rows another worker holds (FOR UPDATE SKIP LOCKED); on SQLite the claim
 *    is one conditional UPDATE, which the single writer serialises.
 * 2. the attempt itself (no transaction).
 * 3. record: the outcome is written only if the lease is still ours.
 * A worker that dies between 1 and 3 leaves a leased row; once the lease passes it is due
 * again, the orphaned attempt row is marked lost, and the attempt is re-run with the same
 * number. Nothing is lost and nothing stays pending forever.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { isoFromMs } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { DISABLE_AFTER_ABANDONED, failureFor, isSuccessStatus, MAX_RESPONSE_BYTES, nextAttemptAt } from '../modules/webhooks/delivery-policy.ts';
import { webhookIo } from '../modules/webhooks/io.ts';
import { announceDisabled, type DisabledNotice, disableForFailures } from '../modules/webhooks/notifications.ts';
import { decryptSecret, secretKey } from '../crypto/secret-box.ts';
import { checkTarget, UnsafeTargetError } from '../modules/webhooks/url-guard.ts';
import { computeSignature } from '../webhooks-consumer/verify.ts';
import { postWebhook } from './post-webhook.ts';

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

export async function claimDueDeliveries(ctx: AppContext, limit: number): Promise<ClaimedAttempt[]> {
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
    secret = decryptSecret(await secretKey(ctx), claim.secretCiphertext);
  } catch {
    return outcome(null, 'the signing secret cannot be decrypted: WEBHOOK_SECRET_KEY differs from the key it was stored with', null);
  }
  try {
    const target = await checkTarget(claim.url, { allowPrivate: ctx.config.webhooks.allowPrivateTargets, resolve: io.resolve, signal });
    const timestamp = String(Math.floor(ctx.clock.nowMs() / 1000));
    const body = Buffer.from(claim.envelope, 'utf8');
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
      { signal, ca: io.ca, maxBodyBytes: MAX_RESPONSE_BYTES, timeoutMs },
    );
    const error = result.error ?? (isSuccessStatus(result.status) ? null : failureFor(result.status!));
    return outcome(result.status, error, result.body);
  } catch (error) {
    if (signal.aborted) return outcome(null, `timeout: no answer within ${timeoutMs} ms`, null);
    if (error instanceof UnsafeTargetError) return outcome(null, `refused before connecting: the URL ${error.message}`, null);
    return outcome(null, String(error), null);
  }
}

/** Writes the outcome if the lease is still ours; abandons, resets or disables as the spec says. */
export async function recordOutcome(ctx: AppContext, log: FastifyBaseLogger, claim: ClaimedAttempt, result: AttemptOutcome): Promise<void> {
  const notice = await ctx.db.transaction().execute(async (trx): Promise<DisabledNotice | null> => {
    const nowMs = ctx.clock.nowMs();
    const now = ctx.clock.nowIso();
    const delivered = result.error === null && isSuccessStatus(result.status);
    const next = delivered ? null : nextAttemptAt(claim.attemptNumber, nowMs);
    const status = delivered ? 'delivered' : next === null ? 'failed' : 'pending';
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
        delivered_at: delivered ? now : null,
      })
      .where('id', '=', claim.deliveryId)
      .where('lease_token', '=', claim.leaseToken)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      // Another worker took the delivery over after our lease expired and marked this attempt lost.
      log.warn({ delivery_id: claim.deliveryId, attempt: claim.attemptNumber }, 'delivery lease lost before the outcome was recorded');
      return null;
    }
    await trx
      .updateTable('webhook_attempts')
      .set({ finished_at: now, duration_ms: result.durationMs, response_status: result.status, error: result.error, response_body: result.body })
      .where('id', '=', claim.attemptId)
      .execute();
    if (claim.isTest || status === 'pending') return null;
    if (status === 'delivered') {
      await trx.updateTable('webhook_endpoints').set({ consecutive_failures: 0 }).where('id', '=', claim.endpointId).execute();
      return null;
    }
    const counter = await trx
      .updateTable('webhook_endpoints')
      .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
      .where('id', '=', claim.endpointId)
      .returning(['consecutive_failures', 'enabled'])
      .executeTakeFirst();
    if (!counter || counter.enabled !== 1 || counter.consecutive_failures < DISABLE_AFTER_ABANDONED) return null;
    return disableForFailures(trx, claim.endpointId, now, result.error);
  });
  if (notice) await announceDisabled(ctx, log, notice);
}

/** One pass: claim up to `limit` due deliveries, attempt them concurrently, record each outcome. */
export async function deliverDue(ctx: AppContext, log: FastifyBaseLogger, limit = 25): Promise<number> {
  const claims = await claimDueDeliveries(ctx, limit);
  await Promise.all(
    claims.map(async (claim) => {
      const result = await attemptDelivery(ctx, claim);
      await recordOutcome(ctx, log, claim, result);
    }),
  );
  return claims.length;
}
