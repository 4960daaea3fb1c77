import { withId, type MigrationContext } from './helpers.ts';

/**
 * Reports from history (docs/api/planning.md#reports). Activity records a status by the name it
 * had then; `status_renames` keeps each rename so a report can tell which status an old name
 * meant. The index serves the reports' read of one project's changes of a few fields.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await withId(dialect, db.schema.createTable('status_renames'))
    .addColumn('status_id', 'integer', (c) => c.notNull().references('statuses.id').onDelete('cascade'))
    .addColumn('from_name', 'text', (c) => c.notNull())
    .addColumn('to_name', 'text', (c) => c.notNull())
    .addColumn('renamed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('status_renames_status_idx').on('status_renames').columns(['status_id', 'id']).execute();
  await db.schema
    .createIndex('activities_task_field_idx')
    .on('activities')
    .columns(['task_id', 'field', 'created_at'])
    .execute();
}
