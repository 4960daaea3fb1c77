import type { MigrationContext } from './helpers.ts';

/**
 * Query filters on webhook endpoints and the changes feed (docs/api/query-language.md).
 *
 * - `webhook_endpoints.filter`: the query an endpoint's events about tasks must match.
 * - `task_changes.before`: what the task was right before the change, so a filter can tell a
 *   task that leaves it from one that never matched, whatever compaction removed since: for an
 *   update the task JSON's properties that differed (the rest is as after), for a deletion the
 *   whole task JSON. Null for a creation, and for records written before this migration.
 * - `event_outbox.task_change_id`: the change record of the task write that raised the event.
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').addColumn('filter', 'text').execute();
  await db.schema.alterTable('task_changes').addColumn('before', 'text').execute();
  await db.schema.alterTable('event_outbox').addColumn('task_change_id', 'integer').execute();
}
