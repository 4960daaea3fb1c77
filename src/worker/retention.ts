import { isoFromMs } from '../clock.ts';
import type { AppContext } from '../context.ts';

const DAY_MS = 86_400_000;

/**
 * Delivery history is kept for WEBHOOK_RETENTION_DAYS (default 30): older delivered and failed
 * deliveries go with their attempts, then outbox events that no delivery references any more.
 * Pending deliveries are never purged (they wait for a disabled endpoint to be re-enabled).
 */
export async function purgeOldDeliveries(ctx: AppContext): Promise<number> {
  const cutoff = isoFromMs(ctx.clock.nowMs() - ctx.config.webhooks.retentionDays * DAY_MS);
  const deliveries = await ctx.db
    .deleteFrom('webhook_deliveries')
    .where('status', 'in', ['delivered', 'failed'])
    .where('created_at', '<', cutoff)
    .executeTakeFirst();
  await ctx.db
    .deleteFrom('event_outbox')
    .where('fanned_out_at', '<', cutoff)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.outbox_id', '=', 'event_outbox.id'))))
    .execute();
  return Number(deliveries.numDeletedRows);
}
