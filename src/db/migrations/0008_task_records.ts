import type { MigrationContext } from './helpers.ts';
import { withId } from './helpers.ts';

/**
 * Records kept on a task: comments, attachments (the bytes live in ATTACHMENTS_DIR under
 * `storage_name`; the row holds what the API shows) and time entries. All go with their task.
 * Authors, uploaders and loggers are kept as null if their account ever disappears, so the
 * record itself survives.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await withId(dialect, db.schema.createTable('comments'))
    .addColumn('task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('edited_at', 'text')
    .execute();
  await db.schema.createIndex('comments_task_idx').on('comments').columns(['task_id', 'id']).execute();

  await withId(dialect, db.schema.createTable('attachments'))
    .addColumn('task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('storage_name', 'text', (c) => c.notNull().unique())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('uploaded_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attachments_task_idx').on('attachments').columns(['task_id', 'id']).execute();

  await withId(dialect, db.schema.createTable('time_entries'))
    .addColumn('task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('minutes', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('time_entries_task_idx').on('time_entries').columns(['task_id', 'id']).execute();
}
