import type { Executor } from '../../db/database.ts';
import { customValuesByTask } from '../custom-fields/custom-fields.repository.ts';
import { findTaskRow, labelNamesByTask, type TaskRow } from './task.repository.ts';
import type { TaskJson } from './task.schemas.ts';

export function presentTask(row: TaskRow, labels: string[], customFields: Record<string, unknown>): TaskJson {
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
    labels,
    milestone: row.milestone_id,
    sprint: row.sprint_id,
    custom_fields: customFields,
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A page of tasks: labels and custom field values come from one query each for the whole page, never one per task. */
export async function presentTasks(db: Executor, rows: TaskRow[]): Promise<TaskJson[]> {
  const ids = rows.map((r) => r.id);
  const [labels, customFields] = await Promise.all([labelNamesByTask(db, ids), customValuesByTask(db, ids)]);
  return rows.map((row) => presentTask(row, labels.get(row.id) ?? [], customFields.get(row.id) ?? {}));
}

/** One task as JSON together with the version its ETag is derived from. */
export interface TaskSnapshot {
  row: TaskRow;
  task: TaskJson;
}

export async function loadSnapshot(db: Executor, taskId: number): Promise<TaskSnapshot | undefined> {
  const row = await findTaskRow(db, taskId);
  if (!row) return undefined;
  const [task] = await presentTasks(db, [row]);
  return { row, task: task! };
}

export function etagOf(version: number): string {
  return `"v${version}"`;
}
