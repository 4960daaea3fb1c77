import type { MigrationContext } from './helpers.ts';

/**
 * A board column is a project's tasks in one status, in id order (GET .../board/). With the id
 * in the key, PostgreSQL reads a column's next cards as a range of this index instead of every
 * task of the status followed by a sort; SQLite's index already ends in the rowid. It replaces
 * the project/status index, whose key is its prefix, so writes maintain as many indexes as before.
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema
    .createIndex('tasks_project_status_id_idx')
    .on('tasks')
    .columns(['project_id', 'status_id', 'id'])
    .execute();
  await db.schema.dropIndex('tasks_project_status_idx').execute();
}
