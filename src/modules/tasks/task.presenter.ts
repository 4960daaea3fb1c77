import type { AppContext } from '../../context.ts';
import type { Db, Dialect, Executor } from '../../db/database.ts';
import { preparedIn } from '../../db/prepared.ts';
import { taskExtrasByIds, taskWithExtras, type TaskExtrasRow, type TaskRow } from './task.repository.ts';
import type { TaskJson } from './task.schemas.ts';

/** What the task JSON needs beyond its row (see taskExtrasByIds). */
export interface TaskExtras {
  labels: string[];
  customFields: Record<string, unknown>;
  timeSpentMinutes: number;
}

export function presentTask(row: TaskRow, extras: TaskExtras): TaskJson {
  return {
    key: row.key,
    project: row.project_key,
    title: row.title,
    description: row.description,
    task_type: row.task_type,
    priority: row.priority,
    status: row.status,
    status_category: row.status_category,
    assignee: row.assignee_id,
    parent: row.parent_key,
    due_date: row.due_date,
    labels: extras.labels,
    milestone: row.milestone_id,
    sprint: row.sprint_id,
    custom_fields: extras.customFields,
    time_spent_minutes: extras.timeSpentMinutes,
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Label order: sorted here rather than in SQL so both databases agree regardless of collation. */
const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const fromJson = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

/** A task row with the extras columns of task.repository.ts (reads). */
export function presentTaskRow(row: TaskRow, extras: TaskExtrasRow): TaskJson {
  return presentTask(row, {
    labels: (fromJson(extras.labels_json) as string[]).sort(byCodePoint),
    customFields: fromJson(extras.custom_fields_json) as Record<string, unknown>,
    timeSpentMinutes: Number(extras.minutes_spent),
  });
}

/** A page of tasks: their labels, custom field values and time totals come from one statement for the whole page. */
export async function presentTasks(db: Executor, dialect: Dialect, rows: TaskRow[]): Promise<TaskJson[]> {
  const extras = await taskExtrasByIds(
    db,
    dialect,
    rows.map((r) => r.id),
  );
  return rows.map((row) => presentTaskRow(row, extras.get(row.id)!));
}

/** One task as JSON together with the version its ETag is derived from. */
export interface TaskSnapshot {
  row: TaskRow;
  task: TaskJson;
}

/** The task as it stands in `executor`'s view (a unit of work reads its own writes). */
export async function loadSnapshot(
  executor: Executor,
  ctx: AppContext,
  taskId: number,
): Promise<TaskSnapshot | undefined> {
  const { dialect } = ctx;
  const [row] = await preparedIn(
    ctx,
    'taskSnapshot',
    (db: Db, id: number) => taskWithExtras(db, dialect, id),
    1,
  )(executor, taskId);
  return row && { row, task: presentTaskRow(row, row) };
}

export function etagOf(version: number): string {
  return `"v${version}"`;
}
