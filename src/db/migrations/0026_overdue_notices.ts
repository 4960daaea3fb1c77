import { withId, type MigrationContext } from './helpers.ts';

/** The scheduler's `overdue` notifications (docs/api/notifications.md): once per task per due date, with several workers. */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await withId(dialect, db.schema.createTable('task_overdue_notices'))
    .addColumn('task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('task_overdue_notices_unique', ['task_id', 'due_date'])
    .execute();
}
