import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { inTransaction, type Tx } from '../db/unit-of-work.ts';
import { storeResponseInTransaction } from './idempotency.ts';

/**
 * A write at the route edge: `work` runs in one transaction; `respond` turns its result into
 * the response payload (and may set headers). When the request claimed an `Idempotency-Key`,
 * the response is stored in that same transaction, so the work and the response a retry will
 * replay commit together; the very bytes stored are then sent. A failed work stores nothing.
 */
export async function commitWrite<R, P>(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  work: (tx: Tx) => Promise<R>,
  respond: (result: R) => P,
): Promise<P | FastifyReply> {
  const store = await storeResponseInTransaction(ctx, request, reply);
  let payload: P | undefined;
  let stored: string | undefined;
  await inTransaction(ctx, async (tx) => {
    const result = await work(tx);
    payload = respond(result);
    stored = await store?.(tx.db, payload);
  });
  if (stored === undefined) return payload as P;
  // Committed with the work: nothing is left for onSend to store.
  request.idempotencyClaimId = undefined;
  return reply.type('application/json; charset=utf-8').send(stored);
}
