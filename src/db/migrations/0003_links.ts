import type { MigrationContext } from './helpers.ts';
import { withId } from './helpers.ts';

/**
 * Dependency links between tasks, each edge stored once in canonical direction:
 * `blocks` (from blocks to; `blocked_by` is stored reversed), `duplicates` (from duplicates to;
 * `duplicated_by` reversed) and `relates_to` (symmetric, stored with the lower task id first).
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await withId(dialect, db.schema.createTable('task_links'))
    .addColumn('from_task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('to_task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('task_links_edge_unique', ['from_task_id', 'to_task_id', 'type'])
    .execute();
  await db.schema.createIndex('task_links_to_idx').on('task_links').columns(['to_task_id', 'type']).execute();
}
