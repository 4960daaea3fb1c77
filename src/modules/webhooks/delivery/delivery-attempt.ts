/**
 * Attempting: one signed POST of a claimed delivery, outside any transaction. Every failure
 * (an undecryptable secret, a refused URL, a timeout, a non-2xx answer) becomes an outcome.
 */
import { performance } from 'node:perf_hooks';
import { computeSignature } from '@tasktracker/webhooks';
import type { AppContext } from '../../../context.ts';
import { decryptSecret, secretKey } from '../../../crypto/secret-box.ts';
import type { AttemptResult } from './delivery-queue.repository.ts';
import { failureFor, isSuccessStatus, MAX_RESPONSE_BYTES } from './delivery-policy.ts';
import { webhookIo } from './io.ts';
import { checkTarget, UnsafeTargetError } from './url-guard.ts';
import type { ClaimedAttempt } from './delivery-claims.ts';
import { postWebhook } from './post-webhook.ts';
import { deliveryBody } from './chat-formats.ts';

export type AttemptOutcome = AttemptResult;

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

/** The headers of an attempt: the bytes sent (the stored envelope, or its chat message) signed with a fresh timestamp. */
function signedHeaders(ctx: AppContext, claim: ClaimedAttempt, secret: string, body: Buffer): Record<string, string> {
  const timestamp = String(Math.floor(ctx.clock.nowMs() / 1000));
  return {
    'content-type': 'application/json',
    'user-agent': 'tasktracker-webhooks/1',
    'x-service-signature': computeSignature(secret, timestamp, body),
    'x-service-timestamp': timestamp,
    'x-service-event-id': claim.eventId,
    'x-service-delivery-id': String(claim.deliveryId),
  };
}

/**
 * Makes one attempt: decrypt the secret, check the URL again (every resolved address), sign
 * the stored bytes with a fresh timestamp, POST to the checked address. The whole attempt,
 * DNS included, shares one total deadline.
 */
export async function attemptDelivery(ctx: AppContext, claim: ClaimedAttempt): Promise<AttemptOutcome> {
  const io = webhookIo(ctx);
  const pools = ctx.state.connectionPools;
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
    return outcome(
      null,
      'the signing secret cannot be decrypted: WEBHOOK_SECRET_KEY differs from the key it was stored with',
      null,
    );
  }
  try {
    const target = await checkTarget(claim.url, {
      allowPrivate: ctx.config.webhooks.allowPrivateTargets,
      allowedPorts: ctx.config.webhooks.allowedPorts,
      resolve: io.resolve,
      signal,
    });
    const baseUrl = ctx.config.publicBaseUrl?.replace(/\/+$/, '') ?? null;
    const body = deliveryBody(claim.format, claim.envelope, baseUrl);
    const secureContext = target.url.protocol === 'https:' ? pools.secureContextFor(io.ca) : undefined;
    const result = await postWebhook(target, body, signedHeaders(ctx, claim, secret, body), {
      signal,
      agent: pools.agentFor(target, secureContext),
      maxBodyBytes: MAX_RESPONSE_BYTES,
      timeoutMs,
    });
    const error = result.error ?? (isSuccessStatus(result.status) ? null : failureFor(result.status!));
    return outcome(result.status, error, result.body);
  } catch (error) {
    if (signal.aborted) return outcome(null, `timeout: no answer within ${timeoutMs} ms`, null);
    if (error instanceof UnsafeTargetError)
      return outcome(null, `refused before connecting: the URL ${error.message}`, null);
    return outcome(null, String(error), null);
  }
}
