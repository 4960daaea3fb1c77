import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { preparedIn } from '../../db/prepared.ts';
import type { ListedTask } from './task-list.repository.ts';
import { taskWithExtras, type TaskExtrasRow, type TaskRow } from './task.repository.ts';
import type { TaskJson } from './task.schemas.ts';

/** What the task JSON needs beyond its row (see taskExtrasByIds). */
export interface TaskExtras {
  labels: string[];
  customFields: Record<string, unknown>;
  timeSpentMinutes: number;
  /** Totals of the subtree below the task (without the task itself); null without subtasks. */
  below: { estimate: number; done_estimate: number; minutes: number } | null;
}

/** The subtree's totals with the task's own figures added. */
function rollupOf(row: TaskRow, extras: TaskExtras): TaskJson['rollup'] {
  if (extras.below === null) return null;
  const own = row.estimate ?? 0;
  return {
    estimate: Number(extras.below.estimate) + own,
    done_estimate: Number(extras.below.done_estimate) + (row.status_category === 'done' ? own : 0),
    time_spent_minutes: Number(extras.below.minutes) + extras.timeSpentMinutes,
  };
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
    start_date: row.start_date,
    estimate: row.estimate === null ? null : Number(row.estimate),
    labels: extras.labels,
    milestone: row.milestone_id,
    sprint: row.sprint_id,
    custom_fields: extras.customFields,
    time_spent_minutes: extras.timeSpentMinutes,
    rollup: rollupOf(row, extras),
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
    below: fromJson(extras.rollup_json) as TaskExtras['below'],
  });
}

/** A page of listed tasks (see task-list.repository.ts). */
export function presentListedTasks(tasks: ListedTask[]): TaskJson[] {
  return tasks.map(({ row, extras }) => presentTaskRow(row, extras));
}

/** One task as JSON together with the version its ETag is derived from. */
export interface TaskSnapshot {
  row: TaskRow;
  task: TaskJson;
}

/** The task as it stands in `ctx.db`'s view (a unit of work reads its own writes). */
export async function loadSnapshot(ctx: AppContext, taskId: number): Promise<TaskSnapshot | undefined> {
  const { dialect } = ctx;
  const [row] = await preparedIn(
    ctx,
    'taskSnapshot',
    (db: Db, id: number) => taskWithExtras(db, dialect, id),
    1,
  )(ctx.db, taskId);
  return row && { row, task: presentTaskRow(row, row) };
}

export function etagOf(version: number): string {
  return `"v${version}"`;
}
