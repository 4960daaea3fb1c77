import { sql } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/** Rules for workflows and planning that the database enforces, so concurrent writers cannot break them. */
export async function up({ db }: MigrationContext): Promise<void> {
  // Workflow names identify workflows to people choosing which one to activate.
  await db.schema
    .createIndex('workflows_project_name_unique')
    .unique()
    .on('workflows')
    .columns(['project_id', 'name'])
    .execute();

  // At most one active sprint per project: a partial unique index (both dialects support them).
  await db.schema
    .createIndex('sprints_one_active_per_project')
    .unique()
    .on('sprints')
    .column('project_id')
    .where(sql.ref('state'), '=', sql.lit('active'))
    .execute();

  // task_count and the detach on delete look tasks up by milestone and sprint. The tasks
  // migration may create the same indexes for its list filters, hence "if not exists".
  await db.schema.createIndex('tasks_milestone_idx').ifNotExists().on('tasks').column('milestone_id').execute();
  await db.schema.createIndex('tasks_sprint_idx').ifNotExists().on('tasks').column('sprint_id').execute();
}
