import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isoFromMs } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { decryptSecret, encryptSecret, secretKey } from '../crypto/secret-box.ts';
import { isUniqueViolation, type Trx } from '../db/database.ts';
import { canonicalJson } from './canonical-json.ts';
import { ApiError, invalid } from './errors.ts';
import * as repo from './idempotency.repository.ts';
import { grantsFor, recheckGrants, type Grant } from '../policy/index.ts';

/**
 * `Idempotency-Key` handling (docs/api/idempotency.md).
 * The claim is committed before the handler runs, so a concurrent twin gets 409 at once
 * instead of waiting on a lock. It runs after authentication, scope and rate-limit checks
 * (onRequest), so 401/403/429 answers are never stored; nor is any other answer but a
 * success (a handler's refusal, 4xx, or a failure, 5xx): the claim is released. A stored response keeps the policy
 * decisions that let its request through (src/policy/), and a replay is answered only if they
 * still hold for the caller: otherwise the caller gets the error it would get now.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaimId?: number;
  }
  interface FastifyContextConfig {
    /**
     * The handler claims the key itself with `claimIdempotencyKey`, once the whole request is
     * known: an upload's body is a stream, so its content can only be compared after it is read.
     */
    idempotencyClaimedByHandler?: boolean;
    /** The response carries a secret shown once (a webhook signing secret): store it encrypted for replays. */
    sealStoredResponse?: boolean;
  }
}

const SEALED = 'sealed:';

function requestHash(request: FastifyRequest, content: unknown): string {
  const path = request.url.split('?')[0] ?? '';
  return createHash('sha256')
    .update(`${request.method} ${path}\n${canonicalJson(content ?? null)}`)
    .digest('hex');
}

/** The request's key, if any; a malformed one is a 400 before any work. */
function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers[IDEMPOTENCY_HEADER];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
    throw invalid({ 'Idempotency-Key': 'must be 1-255 printable ASCII characters' });
  }
  return key;
}

type ClaimResult = { kind: 'claimed'; id: number } | { kind: 'replay'; record: repo.IdempotencyRecord };

async function claim(ctx: AppContext, owner: repo.KeyOwner, key: string, hash: string): Promise<ClaimResult> {
  const nowMs = ctx.clock.nowMs();
  const now = ctx.clock.nowIso();
  const fresh = {
    request_hash: hash,
    lease_expires_at: isoFromMs(nowMs + ctx.config.idempotency.leaseSeconds * 1000),
    created_at: now,
  };
  try {
    return { kind: 'claimed', id: await repo.insertClaim(ctx.db, { ...owner, key, ...fresh }) };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }

  const existing = await repo.findByKey(ctx.db, owner, key);
  if (!existing) throw new ApiError('CONFLICT', 'A request with this Idempotency-Key is in progress; retry shortly.');

  const forgotten = existing.created_at <= isoFromMs(nowMs - ctx.config.idempotency.ttlSeconds * 1000);
  const abandoned = existing.state === 'in_flight' && existing.lease_expires_at <= now;
  if (forgotten || abandoned) {
    if (await repo.takeOver(ctx.db, existing, fresh)) return { kind: 'claimed', id: existing.id };
    throw new ApiError('CONFLICT', 'A request with this Idempotency-Key is in progress; retry shortly.');
  }
  if (existing.request_hash !== hash) {
    throw new ApiError(
      'CONFLICT',
      'This Idempotency-Key was already used with a different request (method, path or body).',
      {
        header: 'Idempotency-Key',
      },
    );
  }
  if (existing.state === 'in_flight') {
    throw new ApiError('CONFLICT', 'A request with this Idempotency-Key is still in progress; retry shortly.', {
      header: 'Idempotency-Key',
    });
  }
  return { kind: 'replay', record: existing };
}

/** Claims the key for this request; when an identical request already completed, returns its stored response instead. */
async function claimForRequest(
  ctx: AppContext,
  request: FastifyRequest,
  key: string,
  hash: string,
): Promise<StoredResponse | null> {
  const principal = request.principal!;
  const owner: repo.KeyOwner = principal.sessionId
    ? { session_id: principal.sessionId }
    : { token_id: principal.tokenId };
  const result = await claim(ctx, owner, key, hash);
  if (result.kind === 'replay') {
    await recheckGrants(ctx.db, principal, JSON.parse(result.record.grants ?? '[]') as Grant[]);
    return result.record;
  }
  request.idempotencyClaimId = result.id;
  return null;
}

export type StoredResponse = repo.IdempotencyRecord;

export async function sendStoredResponse(
  ctx: AppContext,
  reply: FastifyReply,
  record: StoredResponse,
): Promise<FastifyReply> {
  let body = record.response_body ?? '';
  if (body.startsWith(SEALED)) body = decryptSecret(await secretKey(ctx), body.slice(SEALED.length));
  return reply
    .code(record.response_status ?? 200)
    .header('idempotent-replayed', 'true')
    .type('application/json; charset=utf-8')
    .send(body);
}

/**
 * For routes with `idempotencyClaimedByHandler`: claims the request's key (if it has one) with
 * `content` standing for the body in the comparison. Returns the stored response of an earlier
 * identical request, which the handler sends (sendStoredResponse) instead of doing the work.
 */
export async function claimIdempotencyKey(
  ctx: AppContext,
  request: FastifyRequest,
  content: unknown,
): Promise<StoredResponse | null> {
  const key = request.method === 'POST' && request.principal ? idempotencyKeyOf(request) : undefined;
  if (key === undefined) return null;
  return claimForRequest(ctx, request, key, requestHash(request, content));
}

export function registerIdempotency(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST' || !request.principal) return;
    const key = idempotencyKeyOf(request);
    if (key === undefined || request.routeOptions.config.idempotencyClaimedByHandler) return;
    const stored = await claimForRequest(ctx, request, key, requestHash(request, request.body));
    if (stored) return sendStoredResponse(ctx, reply, stored);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const id = request.idempotencyClaimId;
    if (id === undefined) return payload;
    request.idempotencyClaimId = undefined;
    // Only a success is remembered: a refusal changed nothing, and depends on what the caller
    // may do and what exists now, which a retry must be decided against again.
    if (reply.statusCode < 200 || reply.statusCode >= 300) {
      await repo.release(ctx.db, id);
    } else {
      const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
      await repo.complete(
        ctx.db,
        id,
        reply.statusCode,
        await storedForm(body, sealingKey(ctx, request)),
        grantsOf(request),
      );
    }
    return payload;
  });
}

const grantsOf = (request: FastifyRequest): string =>
  JSON.stringify(request.principal ? grantsFor(request.principal) : []);

/** The key a route's stored responses are encrypted with, if it seals them (`sealStoredResponse`). */
function sealingKey(ctx: AppContext, request: FastifyRequest): Promise<Buffer> | undefined {
  return request.routeOptions.config.sealStoredResponse ? secretKey(ctx) : undefined;
}

async function storedForm(body: string, key: Promise<Buffer> | Buffer | undefined): Promise<string> {
  return key ? SEALED + encryptSecret(await key, body) : body;
}

/**
 * For a request that claimed a key: a function that stores the response payload in the work's
 * transaction (src/http/unit-of-work.ts) and returns the stored bytes. Undefined when there is
 * no claim.
 */
export async function storeResponseInTransaction(ctx: AppContext, request: FastifyRequest, reply: FastifyReply) {
  const id = request.idempotencyClaimId;
  if (id === undefined) return undefined;
  // Read before the work's transaction: the first lookup of the key reads (and may write) the
  // database, which on SQLite would wait for the transaction that waits for it.
  const key = await sealingKey(ctx, request);
  return async (trx: Trx, payload: unknown): Promise<string> => {
    // The route's response serializer, as Fastify would apply it to the returned payload.
    const body = reply.serialize(payload) as string;
    await repo.complete(trx, id, reply.statusCode, await storedForm(body, key), grantsOf(request));
    return body;
  };
}

/** Forgets keys older than the replay window (24 hours by default); run by the worker's scheduler. */
export function purgeExpiredIdempotencyKeys(ctx: AppContext): Promise<number> {
  return repo.purgeCreatedBefore(ctx.db, isoFromMs(ctx.clock.nowMs() - ctx.config.idempotency.ttlSeconds * 1000));
}
