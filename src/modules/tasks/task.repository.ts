import { sql } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import type { Principal } from '../auth/principal.ts';
import type { ProjectRef } from '../../policy/index.ts';
import { visibleProjects } from '../../policy/index.ts';

/** Task rows with everything the task JSON needs except labels (fetched per page, see presenter). */
export function selectTaskRows(db: Executor) {
  return db
    .selectFrom('tasks as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .innerJoin('statuses as s', 's.id', 't.status_id')
    .innerJoin('task_types as tt', 'tt.id', 't.task_type_id')
    .innerJoin('priorities as pr', 'pr.id', 't.priority_id')
    .leftJoin('tasks as pt', 'pt.id', 't.parent_id')
    .select([
      't.id',
      't.project_id',
      't.number',
      't.key',
      'p.key as project_key',
      't.title',
      't.description',
      't.task_type_id',
      'tt.name as task_type',
      't.priority_id',
      'pr.name as priority',
      't.status_id',
      's.name as status',
      's.category as status_category',
      't.assignee_id',
      't.parent_id',
      'pt.key as parent_key',
      't.due_date',
      't.milestone_id',
      't.sprint_id',
      't.version',
      't.created_by',
      't.created_at',
      't.updated_at',
    ]);
}

export type TaskRow = Awaited<ReturnType<ReturnType<typeof selectTaskRows>['executeTakeFirstOrThrow']>>;

/**
 * Reads: a task's labels, custom field values and logged minutes as correlated subqueries on
 * indexed task ids, so they come with the row instead of costing a statement each. The lists
 * come back as JSON: text on SQLite, already parsed by the driver on PostgreSQL.
 */
function extrasColumns(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const labels = pg
    ? sql<unknown>`(SELECT coalesce(json_agg(l.name), '[]') FROM task_labels tl JOIN labels l ON l.id = tl.label_id WHERE tl.task_id = t.id)`
    : sql<unknown>`(SELECT json_group_array(l.name) FROM task_labels tl JOIN labels l ON l.id = tl.label_id WHERE tl.task_id = t.id)`;
  const customFields = pg
    ? sql<unknown>`(SELECT coalesce(json_object_agg(v.field_id, CAST(v.value AS json)), '{}') FROM task_custom_values v WHERE v.task_id = t.id)`
    : sql<unknown>`(SELECT json_group_object(CAST(v.field_id AS TEXT), json(v.value)) FROM task_custom_values v WHERE v.task_id = t.id)`;
  const minutes = sql<number | string>`(SELECT coalesce(sum(te.minutes), 0) FROM time_entries te WHERE te.task_id = t.id)`;
  return [labels.as('labels_json'), customFields.as('custom_fields_json'), minutes.as('minutes_spent')] as const;
}

/** One task read in one statement: its row and its extras. */
export function selectTaskRowsWithExtras(db: Executor, dialect: Dialect) {
  return selectTaskRows(db).select(extrasColumns(dialect));
}

export type TaskRowWithExtras = Awaited<ReturnType<ReturnType<typeof selectTaskRowsWithExtras>['executeTakeFirstOrThrow']>>;
export type TaskExtrasRow = Pick<TaskRowWithExtras, 'labels_json' | 'custom_fields_json' | 'minutes_spent'>;

/**
 * The extras of a page of tasks in one statement, after the page is chosen: inside the page
 * query, SQLite would compute them for every candidate row it sorts, not just the page.
 */
export async function taskExtrasByIds(db: Executor, dialect: Dialect, taskIds: number[]): Promise<Map<number, TaskExtrasRow>> {
  if (taskIds.length === 0) return new Map();
  const rows = await db.selectFrom('tasks as t').select('t.id').select(extrasColumns(dialect)).where('t.id', 'in', taskIds).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export function findTaskRow(db: Executor, taskId: number): Promise<TaskRow | undefined> {
  return selectTaskRows(db).where('t.id', '=', taskId).executeTakeFirst();
}

export interface TaskRef {
  id: number;
  key: string;
  project: ProjectRef;
}

/** The task with this key in a project the caller can see (invisible = absent, so callers answer 404). */
export async function findVisibleTaskRef(db: Executor, principal: Principal, key: string): Promise<TaskRef | undefined> {
  const row = await visibleProjects(db, principal)
    .innerJoin('tasks as t', 't.project_id', 'p.id')
    .select(['t.id as task_id', 't.key as task_key', 'p.id', 'p.key', 'p.name', 'p.organization_id', 'p.workflow_id', 'pm.role'])
    .where('t.key', '=', key)
    .executeTakeFirst();
  if (!row) return undefined;
  const { task_id, task_key, ...project } = row;
  return { id: task_id, key: task_key, project };
}

/**
 * PostgreSQL: takes the row lock so concurrent writers of one task queue up instead of losing
 * updates. SQLite runs one transaction at a time on its single connection, so nothing to do.
 */
export async function lockTask(db: Executor, dialect: Dialect, taskId: number): Promise<void> {
  if (dialect === 'postgres') await db.selectFrom('tasks').select('id').where('id', '=', taskId).forUpdate().execute();
}

/**
 * For writes of a task's records (comments, attachments): holds the task for the transaction and
 * confirms it still exists, so a task deleted since the visibility check is a 404 rather than a
 * foreign-key failure.
 */
export async function lockExistingTask(db: Executor, ctx: { dialect: Dialect }, taskId: number): Promise<{ key: string; title: string }> {
  await lockTask(db, ctx.dialect, taskId);
  const task = await db.selectFrom('tasks').select(['key', 'title']).where('id', '=', taskId).executeTakeFirst();
  if (!task) throw notFound('Task');
  return task;
}

/** Label order: sorted here rather than in SQL so both databases agree regardless of collation. */
export const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export async function labelIdsOf(db: Executor, taskId: number): Promise<number[]> {
  const rows = await db.selectFrom('task_labels').select('label_id').where('task_id', '=', taskId).execute();
  return rows.map((r) => r.label_id);
}
