import type { Executor } from '../../db/database.ts';

/** What reports read of one project: its tasks now, and the changes of the fields they replay (history.ts). */

/** The project's tasks that existed at `asOf`, with the values they have now. */
export function tasksOfProject(db: Executor, projectId: number, asOf: string) {
  return db
    .selectFrom('tasks as t')
    .innerJoin('task_types as tt', 'tt.id', 't.task_type_id')
    .select([
      't.id',
      't.key',
      't.title',
      't.status_id',
      't.estimate',
      't.sprint_id',
      'tt.name as task_type',
      't.created_at',
    ])
    .where('t.project_id', '=', projectId)
    .where('t.created_at', '<=', asOf)
    .orderBy('t.id')
    .execute();
}

export type ReportField = 'status' | 'estimate' | 'sprint';

/**
 * The changes of `fields` on the project's tasks after `after` (all of them when null), by task
 * and field, oldest first: rows after `asOf` are read too, since a task's value at a time is found
 * by undoing every later change from its value now. In the order of the index on (task, field,
 * time), so neither database sorts the rows (there can be 100,000s of them).
 */
export function fieldChanges(db: Executor, projectId: number, fields: ReportField[], after: string | null) {
  let query = db
    .selectFrom('activities as a')
    .select(['a.task_id', 'a.field', 'a.from_value', 'a.created_at'])
    .where('a.task_id', 'in', (eb) => eb.selectFrom('tasks').select('id').where('project_id', '=', projectId))
    .where('a.field', 'in', fields)
    .where('a.action', '=', 'updated');
  if (after !== null) query = query.where('a.created_at', '>', after);
  return query.orderBy('a.task_id').orderBy('a.field').orderBy('a.created_at').orderBy('a.id').execute();
}

/** The project's statuses in board order, each with its renames, oldest first. */
export async function statusesWithRenames(db: Executor, projectId: number) {
  const statuses = await db
    .selectFrom('statuses')
    .select(['id', 'name', 'category', 'position'])
    .where('project_id', '=', projectId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const renames = await db
    .selectFrom('status_renames as r')
    .innerJoin('statuses as s', 's.id', 'r.status_id')
    .select(['r.status_id', 'r.from_name', 'r.to_name', 'r.renamed_at'])
    .where('s.project_id', '=', projectId)
    .orderBy('r.id')
    .execute();
  return { statuses, renames };
}

/** The project's sprints, by start date. */
export function sprintsOfProject(db: Executor, projectId: number) {
  return db
    .selectFrom('sprints')
    .select(['id', 'name', 'state', 'start_date', 'end_date'])
    .where('project_id', '=', projectId)
    .orderBy('start_date')
    .orderBy('id')
    .execute();
}

export async function estimateUnitOf(db: Executor, projectId: number): Promise<'points' | 'hours'> {
  const row = await db
    .selectFrom('projects')
    .select('estimate_unit')
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow();
  return row.estimate_unit;
}
