import type { MigrationContext } from './helpers.ts';

/**
 * The default order of a query's results (docs/api/query-language.md, "Ordering"): newest
 * first, ties by number within a project. A query's page reads each project's matches in this
 * order and stops after the page (orderedPageIds) instead of sorting every match: a
 * cross-project `assignee = me() AND status_category != done` at 100,000 tasks sorted 8,000
 * rows for a page of 50. `created_at` never changes, so updating a task does not touch the
 * first index.
 *
 * The second serves "My work" (`assignee = me()`, the app's built-in view) in that order
 * within each project, whatever the statistics say of how many tasks one person holds: walking
 * a project newest first and testing the assignee reads the whole project when the person has
 * nothing there. It replaces the assignee's own index, its prefix, so a write maintains as many
 * indexes as before.
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema
    .createIndex('tasks_project_created_idx')
    .on('tasks')
    .columns(['project_id', 'created_at desc', 'number'])
    .execute();
  await db.schema
    .createIndex('tasks_assignee_created_idx')
    .on('tasks')
    .columns(['assignee_id', 'project_id', 'created_at desc', 'number'])
    .execute();
  await db.schema.dropIndex('tasks_assignee_idx').execute();
}
