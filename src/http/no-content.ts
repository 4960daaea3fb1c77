import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.ts';
import { inTransaction, type Tx } from '../db/unit-of-work.ts';

/** A write that answers 204 with no body (a delete, a revoke): the answer goes once it has committed. */
export async function commitNoContent(
  ctx: AppContext,
  reply: FastifyReply,
  work: (tx: Tx) => Promise<unknown>,
): Promise<FastifyReply> {
  await inTransaction(ctx, work);
  return reply.code(204).send(null);
}
