import { isoFromMs } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { inTransaction } from '../db/unit-of-work.ts';
import { CHANGES_FEED_HORIZON } from '../modules/changes/changes.repository.ts';
import { deleteAuditRecordsBefore } from '../modules/audit/audit.repository.ts';
import * as repo from './retention.repository.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Rows one statement deletes, so a large backlog (the first sweep after an upgrade) never holds the writer long. */
export const RETENTION_BATCH = 2_000;

/**
 * Delivery history is kept for WEBHOOK_RETENTION_DAYS (default 30): older delivered and failed
 * deliveries go with their attempts, and so do the pending deliveries of an endpoint disabled
 * (and left unchanged) that long; then outbox events that no delivery references any more.
 */
export async function purgeOldDeliveries(ctx: AppContext): Promise<number> {
  const cutoff = isoFromMs(ctx.clock.nowMs() - ctx.config.webhooks.retentionDays * DAY_MS);
  const deleted = await repo.deleteFinishedDeliveriesBefore(ctx.db, cutoff);
  const abandoned = await repo.deletePendingDeliveriesOfEndpointsDisabledBefore(ctx.db, cutoff);
  await repo.deleteUnreferencedEventsBefore(ctx.db, cutoff);
  return deleted + abandoned;
}

/**
 * One pass over the changes feed and the live stream's table (docs/operating/retention.md);
 * resolves true when a batch was full and another pass should follow at once.
 *
 * The feed is compacted, not cut: after CHANGES_RETENTION_DAYS a record goes when a later record
 * of its task supersedes it, so every task keeps its latest record and a walk from the start
 * still copies every task. Deletion records then go too; that is the one loss a reader can
 * suffer, so it is recorded (with the deletions, in one transaction) as a new generation of the
 * feed's horizon, and the feed refuses walks it could have cut short (410 RESYNC_REQUIRED).
 */
export async function purgeOldChanges(ctx: AppContext): Promise<boolean> {
  const now = ctx.clock.nowMs();
  const cutoff = isoFromMs(now - ctx.config.retention.changesDays * DAY_MS);
  let more = (await repo.deleteSupersededChangesBefore(ctx.db, cutoff, RETENTION_BATCH)) === RETENTION_BATCH;
  if (!more && (await repo.hasDeletionRecordsBefore(ctx.db, cutoff))) {
    more = await inTransaction(ctx, async (tx) => {
      await repo.advanceHorizon(tx.db, CHANGES_FEED_HORIZON, cutoff);
      return (await repo.deleteDeletionRecordsBefore(tx.db, cutoff, RETENTION_BATCH)) === RETENTION_BATCH;
    });
  }

  // live_events rows carry no time: a mark notes how far the table reached at each pass.
  await repo.markLiveEvents(ctx.db, isoFromMs(now));
  const liveCutoff = isoFromMs(now - ctx.config.retention.liveEventsHours * HOUR_MS);
  const expired = await repo.liveEventsMarkedBefore(ctx.db, liveCutoff);
  if (expired !== null) {
    if ((await repo.deleteLiveEventsThrough(ctx.db, expired, RETENTION_BATCH)) === RETENTION_BATCH) more = true;
    else await repo.deleteLiveEventMarksThrough(ctx.db, expired);
  }
  return more;
}

/**
 * Audit log records older than AUDIT_RETENTION_DAYS (default 365) go, in batches; resolves true
 * when a batch was full and another pass should follow at once. The only deletion of audit
 * records there is: nothing in the product changes or deletes one.
 */
export async function purgeOldAuditRecords(ctx: AppContext): Promise<boolean> {
  const cutoff = isoFromMs(ctx.clock.nowMs() - ctx.config.retention.auditDays * DAY_MS);
  return (await deleteAuditRecordsBefore(ctx.db, cutoff, RETENTION_BATCH)) === RETENTION_BATCH;
}
