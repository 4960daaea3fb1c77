import type { Executor } from '../../db/database.ts';
import type { Principal } from '../../identity/principal.ts';
import { visibleTasks } from './task.repository.ts';

/** The lookups that check a task write against its project: vocabulary, members, hierarchy, workflow. */

export type NamedTable = 'task_types' | 'priorities' | 'statuses';

/** A project's task types, priorities or statuses, by name. */
export async function namesOfProject(db: Executor, table: NamedTable, projectId: number): Promise<Map<string, number>> {
  const rows = await db.selectFrom(table).select(['id', 'name']).where('project_id', '=', projectId).execute();
  return new Map(rows.map((r) => [r.name, r.id]));
}

/** The first of a project's task types, priorities or statuses in their order. */
export async function firstOfProject(db: Executor, table: NamedTable, projectId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom(table)
    .select('id')
    .where('project_id', '=', projectId)
    .orderBy('position')
    .orderBy('id')
    .executeTakeFirst();
  return row?.id;
}

/** Which of `userIds` are members of the project. */
export async function membersAmong(db: Executor, projectId: number, userIds: number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('project_memberships')
    .select('user_id')
    .where('project_id', '=', projectId)
    .where('user_id', 'in', userIds)
    .execute();
  return new Set(rows.map((r) => r.user_id));
}

export function labelsNamed(
  db: Executor,
  projectId: number,
  names: string[],
): Promise<Array<{ id: number; name: string }>> {
  return db
    .selectFrom('labels')
    .select(['id', 'name'])
    .where('project_id', '=', projectId)
    .where('name', 'in', names)
    .execute();
}

/** Whether the project has a milestone or sprint with this id. */
export async function planningItemExists(
  db: Executor,
  table: 'milestones' | 'sprints',
  projectId: number,
  id: number,
): Promise<boolean> {
  const row = await db
    .selectFrom(table)
    .select('id')
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function taskIdByKey(db: Executor, projectId: number, key: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('tasks')
    .select('id')
    .where('project_id', '=', projectId)
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.id;
}

/** The task's parent id: null for a top-level task, undefined when the task does not exist. */
export async function parentIdOf(db: Executor, taskId: number): Promise<number | null | undefined> {
  const row = await db.selectFrom('tasks').select('parent_id').where('id', '=', taskId).executeTakeFirst();
  return row?.parent_id;
}

/** Ids of the direct subtasks of any of the tasks. */
export async function childIdsOfAny(db: Executor, taskIds: number[]): Promise<number[]> {
  const rows = await db.selectFrom('tasks').select('id').where('parent_id', 'in', taskIds).execute();
  return rows.map((r) => r.id);
}

export async function statusName(db: Executor, statusId: number): Promise<string> {
  const row = await db.selectFrom('statuses').select('name').where('id', '=', statusId).executeTakeFirstOrThrow();
  return row.name;
}

/**
 * The tasks that block `taskId` (`blocks` links into it), are open (status not in the done
 * category), are due after `startDate`, and are in projects `principal` sees: what the schedule
 * rule refuses a start date for. Latest due first.
 */
export function openBlockersDueAfter(
  db: Executor,
  principal: Principal,
  taskId: number,
  startDate: string,
): Promise<Array<{ key: string; title: string; due_date: string }>> {
  return visibleTasks(db, principal)
    .innerJoin('task_links as l', 'l.from_task_id', 't.id')
    .innerJoin('statuses as s', 's.id', 't.status_id')
    .where('l.type', '=', 'blocks')
    .where('l.to_task_id', '=', taskId)
    .where('s.category', '!=', 'done')
    .where('t.due_date', '>', startDate)
    .select(['t.key', 't.title', 't.due_date'])
    .$narrowType<{ due_date: string }>()
    .orderBy('t.due_date', 'desc')
    .orderBy('t.id')
    .execute();
}
