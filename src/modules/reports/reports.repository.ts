import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/** What reports read of one project: its tasks now, and the changes of the fields they replay (history.ts). */

/**
 * The project's change records (the changes feed's, one in the transaction of every task write)
 * as a mark: their last id, and how many there are when `counted` (else 0), with the tasks of
 * those after `afterId` (none when null). One statement, so the mark and the rows after it are
 * of one snapshot.
 */
export function changesSince(db: Executor, projectId: number, afterId: number | null, counted: boolean) {
  const mark = db
    .selectFrom('task_changes')
    .select((eb) => [
      counted ? eb.fn.countAll<number | string>().as('total') : sql<number>`0`.as('total'),
      eb.fn.max('id').as('last'),
    ])
    .where('project_id', '=', projectId);
  if (afterId === null)
    return db
      .selectFrom(mark.as('m'))
      .select(['m.total', 'm.last', sql<number | null>`null`.as('task_id')])
      .execute();
  return db
    .selectFrom(mark.as('m'))
    .leftJoin('task_changes as c', (join) => join.on('c.project_id', '=', projectId).on('c.id', '>', afterId))
    .select(['m.total', 'm.last', 'c.task_id'])
    .execute();
}

/** The project's tasks (all of them, or those of `ids`), with the values they have now. */
export function tasksOfProject(db: Executor, projectId: number, ids: number[] | null) {
  let query = db
    .selectFrom('tasks')
    .select(['id', 'key', 'title', 'task_type_id', 'status_id', 'estimate', 'sprint_id', 'created_at'])
    .where('project_id', '=', projectId);
  if (ids !== null) query = query.where('id', 'in', ids);
  return query.orderBy('id').execute();
}

export type ReportField = 'status' | 'estimate' | 'sprint';
export const REPORT_FIELDS: ReportField[] = ['status', 'estimate', 'sprint'];

/**
 * Every recorded change of the fields reports replay, of the project's tasks (or of `ids`), by
 * task and field, oldest first: in the order of the index on (task, field, time), so neither
 * database sorts the rows (there can be 100,000s of them).
 */
export function fieldChanges(db: Executor, projectId: number, ids: number[] | null) {
  return db
    .selectFrom('activities as a')
    .select(['a.task_id', 'a.field', 'a.from_value', 'a.created_at'])
    .where('a.task_id', 'in', (eb) => {
      let tasks = eb.selectFrom('tasks').select('id').where('project_id', '=', projectId);
      if (ids !== null) tasks = tasks.where('id', 'in', ids);
      return tasks;
    })
    .where('a.field', 'in', REPORT_FIELDS)
    .where('a.action', '=', 'updated')
    .orderBy('a.task_id')
    .orderBy('a.field')
    .orderBy('a.created_at')
    .orderBy('a.id')
    .execute();
}

/** The project's task types, by id. */
export function taskTypesOf(db: Executor, projectId: number) {
  return db.selectFrom('task_types').select(['id', 'name']).where('project_id', '=', projectId).orderBy('id').execute();
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
