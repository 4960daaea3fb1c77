import { type Insertable, type RawBuilder, sql, type Updateable } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import type { TasksTable } from '../../db/schema.ts';
import { outboxInsert, type OutboxRow } from '../../events/outbox.repository.ts';
import { type ActivityEntry, activitiesInsert } from '../activity/activity.repository.ts';
import { type TaskChange, taskChangeInsert } from '../changes/changes.repository.ts';

/** The statements behind task-writes.ts, the one writer of task rows and their labels and custom values. */

/**
 * Takes the project's next task number (an atomic increment: a rolled-back create gives it
 * back), with the project's defaults for a new task. On PostgreSQL the update holds the project
 * row until commit, as lockProject would.
 */
export function takeTaskNumber(db: Executor, projectId: number) {
  return db
    .updateTable('projects')
    .set((eb) => ({ task_counter: eb('task_counter', '+', 1) }))
    .where('id', '=', projectId)
    .returning(['task_counter', 'default_task_type_id', 'default_priority_id', 'default_status_id'])
    .executeTakeFirstOrThrow();
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
  return db
    .selectFrom('tasks')
    .select(['id', 'key', 'title', 'project_id'])
    .where('id', '=', taskId)
    .executeTakeFirst();
}

/** Ids of the task's direct subtasks, in id order. */
export async function childIdsOf(db: Executor, taskId: number): Promise<number[]> {
  const rows = await db.selectFrom('tasks').select('id').where('parent_id', '=', taskId).orderBy('id').execute();
  return rows.map((r) => r.id);
}

export async function replaceLabels(db: Executor, taskId: number, labelIds: number[]): Promise<void> {
  await db.deleteFrom('task_labels').where('task_id', '=', taskId).execute();
  if (labelIds.length)
    await db
      .insertInto('task_labels')
      .values(labelIds.map((label_id) => ({ task_id: taskId, label_id })))
      .execute();
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

/** What a task write records besides its rows: activity entries, the change record, outbox events in order. */
export interface TaskWriteRecords {
  activities: ActivityEntry[];
  change: TaskChange;
  events: OutboxRow[];
}

/**
 * Inserts a task write's records; each event points at the write's change record. On
 * PostgreSQL they go as one statement (each insert a data-modifying WITH clause, which runs
 * whether or not anything reads it; the events read the change's id from its clause): one
 * round trip instead of three or more, while the write holds its task's and project's locks.
 * SQLite runs in process, so there is no round trip to save: one insert after another.
 */
export async function insertTaskWriteRecords(db: Executor, dialect: Dialect, records: TaskWriteRecords): Promise<void> {
  const activities = records.activities.length ? [activitiesInsert(db, records.activities)] : [];
  const change = taskChangeInsert(db, records.change).returning('id');
  const eventsOf = (changeId: number | RawBuilder<number>) =>
    records.events.length
      ? [
          outboxInsert(
            db,
            records.events.map((event) => ({ ...event, task_change_id: changeId })),
          ),
        ]
      : [];
  if (dialect !== 'postgres') {
    for (const insert of activities) await insert.execute();
    const { id } = await change.executeTakeFirstOrThrow();
    for (const insert of eventsOf(id)) await insert.execute();
    return;
  }
  const inserts = [
    ...activities,
    change,
    ...eventsOf(sql<number>`(select id from ${sql.id(`written_${activities.length}`)})`),
  ];
  const clauses = inserts.map((insert, i) => sql`${sql.id(`written_${i}`)} as (${insert})`);
  await sql`with ${sql.join(clauses)} select 1`.execute(db);
}
