import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { TasksTable } from '../../db/schema.ts';

/** The statements behind task-writes.ts, the one writer of task rows and their labels and custom values. */

/** Takes the project's next task number (an atomic increment: a rolled-back create gives it back). */
export async function nextTaskNumber(db: Executor, projectId: number): Promise<number> {
  const { task_counter } = await db
    .updateTable('projects')
    .set((eb) => ({ task_counter: eb('task_counter', '+', 1) }))
    .where('id', '=', projectId)
    .returning('task_counter')
    .executeTakeFirstOrThrow();
  return task_counter;
}

export async function insertTask(db: Executor, values: Omit<Insertable<TasksTable>, 'id'>): Promise<number> {
  const { id } = await db.insertInto('tasks').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateTaskColumns(db: Executor, taskId: number, set: Updateable<TasksTable>): Promise<void> {
  await db.updateTable('tasks').set(set).where('id', '=', taskId).execute();
}

export async function deleteTaskRow(db: Executor, taskId: number): Promise<void> {
  await db.deleteFrom('tasks').where('id', '=', taskId).execute();
}

/** What the deletion of a task reports about it. */
export function findTaskHead(db: Executor, taskId: number) {
  return db.selectFrom('tasks').select(['id', 'key', 'title', 'project_id']).where('id', '=', taskId).executeTakeFirst();
}

/** Ids of the task's direct subtasks, in id order. */
export async function childIdsOf(db: Executor, taskId: number): Promise<number[]> {
  const rows = await db.selectFrom('tasks').select('id').where('parent_id', '=', taskId).orderBy('id').execute();
  return rows.map((r) => r.id);
}

export async function replaceLabels(db: Executor, taskId: number, labelIds: number[]): Promise<void> {
  await db.deleteFrom('task_labels').where('task_id', '=', taskId).execute();
  if (labelIds.length) await db.insertInto('task_labels').values(labelIds.map((label_id) => ({ task_id: taskId, label_id }))).execute();
}

/** Stores one custom field value of a task as JSON text (inserted or replaced). */
export async function upsertCustomValue(db: Executor, taskId: number, fieldId: number, json: string): Promise<void> {
  await db
    .insertInto('task_custom_values')
    .values({ task_id: taskId, field_id: fieldId, value: json })
    .onConflict((oc) => oc.columns(['task_id', 'field_id']).doUpdateSet({ value: json }))
    .execute();
}

export async function deleteCustomValue(db: Executor, taskId: number, fieldId: number): Promise<void> {
  await db.deleteFrom('task_custom_values').where('task_id', '=', taskId).where('field_id', '=', fieldId).execute();
}
