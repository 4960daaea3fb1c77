/**
 * The delivery worker: claim due deliveries, POST each once, record the outcome.
 *
 * Three steps per attempt, and no transaction across the HTTP call:
 * 1. claim (delivery-claims.ts): due rows get a lease and an in-flight attempt row.
 * 2. the attempt itself (delivery-attempt.ts), outside any transaction.
 * 3. record (delivery-outcomes.ts): the outcome is written only if the lease is still ours.
 * Claims and records are batched by the pump (delivery-pump.ts): one claim takes many rows, and
 * outcomes that finish while a record transaction runs are written together by the next one.
 * A worker that dies between 1 and 3 leaves a leased row; once the lease passes it is due
 * again, the orphaned attempt row is marked lost, and the attempt is re-run with the same
 * number. Nothing is lost and nothing stays pending forever (docs/domain/webhook-delivery.md).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { DeliveryPump } from './delivery-pump.ts';

/** One pass: claim up to `limit` due deliveries, attempt them, record every outcome. */
export async function deliverDue(ctx: AppContext, log: FastifyBaseLogger, limit = 25): Promise<number> {
  const pump = new DeliveryPump(ctx, log, limit);
  const claimed = await pump.pass();
  await pump.drain();
  return claimed;
}
