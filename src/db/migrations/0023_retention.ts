import type { MigrationContext } from './helpers.ts';

/**
 * Bookkeeping of the retention sweeps (docs/operating/retention.md).
 *
 * - `task_changes_task_idx`: the feed's compaction finds, per task, whether a later record
 *   supersedes a record.
 * - `retention_horizons`: for the changes feed, the cutoff of the last sweep that removed
 *   deletion records, and how many such sweeps ran: a walk that began before one is refused
 *   (410 RESYNC_REQUIRED) instead of silently missing a deletion.
 * - `live_event_marks`: live_events rows carry no time (triggers write them), so each sweep
 *   notes the largest id with the time it saw it; rows up to a mark older than the retention go.
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema.createIndex('task_changes_task_idx').on('task_changes').columns(['task_id', 'id']).execute();
  await db.schema
    .createTable('retention_horizons')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('purged_before', 'text', (c) => c.notNull())
    .addColumn('generation', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('live_event_marks')
    .addColumn('last_id', 'bigint', (c) => c.primaryKey())
    .addColumn('marked_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('live_event_marks_marked_at_idx').on('live_event_marks').column('marked_at').execute();
}
