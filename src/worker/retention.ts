import { isoFromMs } from '../clock.ts';
import type { AppContext } from '../context.ts';
import * as repo from './retention.repository.ts';

const DAY_MS = 86_400_000;

/**
 * Delivery history is kept for WEBHOOK_RETENTION_DAYS (default 30): older delivered and failed
 * deliveries go with their attempts, then outbox events that no delivery references any more.
 * Pending deliveries are never purged (they wait for a disabled endpoint to be re-enabled).
 */
export async function purgeOldDeliveries(ctx: AppContext): Promise<number> {
  const cutoff = isoFromMs(ctx.clock.nowMs() - ctx.config.webhooks.retentionDays * DAY_MS);
  const deleted = await repo.deleteFinishedDeliveriesBefore(ctx.db, cutoff);
  await repo.deleteUnreferencedEventsBefore(ctx.db, cutoff);
  return deleted;
}
