import { withId, type MigrationContext } from './helpers.ts';

/**
 * The assignee and the creator of a task follow it without a `task_followers` row; one who
 * unfollows it is recorded here, so they stop hearing of it until they follow it again.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await withId(dialect, db.schema.createTable('task_unfollows'))
    .addColumn('task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('task_unfollows_unique', ['task_id', 'user_id'])
    .execute();
}
