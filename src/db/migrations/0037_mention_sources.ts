import type { MigrationContext } from './helpers.ts';

/**
 * A `mentioned_in` activity row says which task's description or comment named this one
 * (docs/api/tasks.md, "Activity"). Readers who cannot see that task do not get the row; it goes
 * with the task that named it.
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('activities')
    .addColumn('source_task_id', 'integer', (c) => c.references('tasks.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('activities_source_task_idx').on('activities').column('source_task_id').execute();
}
