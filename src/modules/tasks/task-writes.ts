import type { TasksTable } from '../../db/schema.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { notFound } from '../../http/errors.ts';
import { type ActionOrigin, type EventToRecord, outboxRowOf } from '../../events/record-event.ts';
import type { ActivityEntry } from '../activity/activity.repository.ts';
import type { ProjectDefaults } from './task-input.ts';
import { loadSnapshot, type TaskSnapshot } from './task.presenter.ts';
import { storedBefore } from '../changes/task-states.ts';
import * as records from './task-writes.repository.ts';
import { labelIdsOf, lockTask } from './task.repository.ts';
import {
  DERIVED_FIELDS,
  type TaskJson,
  type TrackedField,
  WRITABLE_FIELD_STORAGE,
  WRITABLE_FIELDS,
  type WritableField,
} from './task.schemas.ts';

/**
 * The only code that writes tasks, one function per operation: writeTaskCreate,
 * writeTaskUpdate, writeTaskDelete, and writeTaskRecord for a write of one of a task's records
 * that may move its derived fields. Each also writes, in the caller's unit of work: the change
 * record the changes feed serves, the outbox events, the activity rows, and the bumped version /
 * updated_at.
 *
 * Values are already resolved (ids, checked against the project's rules); callers validate
 * first (task-input.ts, the workflow transition check, the hierarchy check).
 */

/** The `tasks` columns a write sets, from the one list of writable fields. */
type TaskColumn = Exclude<(typeof WRITABLE_FIELD_STORAGE)[WritableField], 'label_ids'>;
const COLUMNS = Object.values(WRITABLE_FIELD_STORAGE).filter((column): column is TaskColumn => column !== 'label_ids');

export type TaskValues = Pick<TasksTable, TaskColumn> & {
  label_ids: number[];
  /** Custom field values by field id, already checked (custom-fields/values.ts); in changes, null clears one. */
  custom_fields: Record<number, unknown>;
};
export type TaskChanges = Partial<TaskValues>;

/**
 * `{field: {from, to}}` in task-JSON terms (names, keys, ids), as in task.updated events. A
 * custom field is named `custom_fields.<id>`, its absent value being null.
 */
export type ChangedField = TrackedField | `custom_fields.${number}`;
export type FieldChanges = Partial<Record<ChangedField, { from: unknown; to: unknown }>>;

export interface TaskUpdateResult extends TaskSnapshot {
  changes: FieldChanges;
}

/** Writes what a task write records besides its rows (see insertTaskWriteRecords): activity entries, the change record, events. */
function recordWrite(
  tx: Tx,
  change: {
    projectId: number;
    taskId: number;
    key: string;
    action: 'created' | 'updated' | 'deleted';
    /** The task JSON right before the change (null for a creation) and right after (null for a deletion). */
    before: TaskJson | null;
    task: TaskJson | null;
    at: string;
  },
  activities: ActivityEntry[],
  events: EventToRecord[],
) {
  return records.insertTaskWriteRecords(tx.db, tx.dialect, {
    activities,
    change: {
      project_id: change.projectId,
      task_id: change.taskId,
      task_key: change.key,
      action: change.action,
      task: change.task === null ? null : JSON.stringify(change.task),
      before: storedBefore(change.action, change.before, change.task),
      changed_at: change.at,
    },
    events: events.map(outboxRowOf),
  });
}

async function setCustomValues(tx: Tx, taskId: number, values: Array<[fieldId: number, value: unknown]>) {
  for (const [fieldId, value] of values) {
    if (value === null) await records.deleteCustomValue(tx.db, taskId, fieldId);
    else await records.upsertCustomValue(tx.db, taskId, fieldId, JSON.stringify(value));
  }
}

const customEntries = (values: Record<number, unknown>) =>
  Object.entries(values).map(([id, value]) => [Number(id), value] as [number, unknown]);

/** A task number taken for a create, with the project's defaults for a new task. */
export interface ReservedNumber {
  number: number;
  defaults: ProjectDefaults;
}

/**
 * Takes the project's next task number: an atomic increment of projects.task_counter inside
 * this transaction. Concurrent creates queue on the project row, which stays locked until
 * commit (PostgreSQL), so a create takes its number before its checks, in place of
 * lockProject. A rolled-back create gives its number back, and a deleted task's number is
 * never reused.
 */
export async function reserveTaskNumber(tx: Tx, projectId: number): Promise<ReservedNumber> {
  const { task_counter, ...defaults } = await records.takeTaskNumber(tx.db, projectId);
  return { number: task_counter, defaults };
}

/**
 * Locks the task for the rest of the transaction and reads it: what writeTaskUpdate and
 * writeTaskRecord start from (404 if it is gone).
 */
export async function lockTaskForWrite(tx: Tx, taskId: number): Promise<TaskSnapshot> {
  await lockTask(tx.db, tx.dialect, taskId);
  const snapshot = await loadSnapshot(tx, taskId);
  if (!snapshot) throw notFound('Task');
  return snapshot;
}

/** Creates a task with a number reserveTaskNumber took in this transaction. */
export async function writeTaskCreate(
  tx: Tx,
  origin: ActionOrigin,
  project: { id: number; key: string },
  number: number,
  values: TaskValues,
): Promise<TaskSnapshot> {
  const now = tx.clock.nowIso();
  const { label_ids, custom_fields, ...columns } = values;
  const id = await records.insertTask(tx.db, {
    ...columns,
    project_id: project.id,
    number,
    key: `${project.key}-${number}`,
    version: 1,
    created_by: origin.actor.id,
    created_at: now,
    updated_at: now,
  });
  if (label_ids.length) await records.replaceLabels(tx.db, id, label_ids);
  await setCustomValues(
    tx,
    id,
    customEntries(custom_fields).filter(([, value]) => value !== null),
  );

  const snapshot = (await loadSnapshot(tx, id))!;
  await recordWrite(
    tx,
    {
      projectId: project.id,
      taskId: id,
      key: snapshot.task.key,
      action: 'created',
      before: null,
      task: snapshot.task,
      at: now,
    },
    [
      {
        task_id: id,
        actor_id: origin.actor.id,
        action: 'created',
        field: null,
        from_value: null,
        to_value: null,
        created_at: now,
      },
    ],
    [{ type: 'task.created', origin, projectId: project.id, occurredAt: now, data: { task: snapshot.task } }],
  );
  return snapshot;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const sameSet = (a: number[], b: number[]) => a.length === b.length && a.every((id) => b.includes(id));

/**
 * Applies resolved changes to one task, which this transaction has locked and read since
 * (`before`, from lockTaskForWrite or lockTask and loadSnapshot). Fields equal to their current value are ignored; when nothing differs,
 * nothing is written (no version bump, no event) and `changes` is empty. Otherwise,
 * atomically with the caller's transaction: version + 1, updated_at, one activity row per
 * changed field, one change record, task.updated (plus task.status_changed and task.assigned
 * when those fields moved).
 */
export async function writeTaskUpdate(
  tx: Tx,
  origin: ActionOrigin,
  before: TaskSnapshot,
  changes: TaskChanges,
): Promise<TaskUpdateResult> {
  const taskId = before.row.id;
  const set: Partial<Omit<TaskValues, 'label_ids' | 'custom_fields'>> = {};
  for (const column of COLUMNS) {
    const value = changes[column];
    if (value !== undefined && value !== before.row[column]) Object.assign(set, { [column]: value });
  }
  const labelsChanged = changes.label_ids !== undefined && !sameSet(changes.label_ids, await labelIdsOf(tx.db, taskId));
  const customChanged = customEntries(changes.custom_fields ?? {}).filter(
    ([id, value]) => !sameJson(before.task.custom_fields[id] ?? null, value),
  );
  if (Object.keys(set).length === 0 && !labelsChanged && customChanged.length === 0) return { ...before, changes: {} };

  const now = tx.clock.nowIso();
  await records.updateTaskColumns(tx.db, taskId, { ...set, version: before.row.version + 1, updated_at: now });
  if (labelsChanged) await records.replaceLabels(tx.db, taskId, changes.label_ids!);
  await setCustomValues(tx, taskId, customChanged);
  const after = (await loadSnapshot(tx, taskId))!;

  return recordUpdate(
    tx,
    origin,
    before,
    after,
    WRITABLE_FIELDS,
    customChanged.map(([id]) => id),
    now,
  );
}

/**
 * The bookkeeping of an update whose row changes are already written (version bumped): one
 * activity row per changed field, the change record, task.updated, and task.status_changed /
 * task.assigned when those fields moved.
 */
async function recordUpdate(
  tx: Tx,
  origin: ActionOrigin,
  before: TaskSnapshot,
  after: TaskSnapshot,
  fields: readonly TrackedField[],
  customFieldIds: number[],
  now: string,
): Promise<TaskUpdateResult> {
  const taskId = after.row.id;
  const fieldChanges: FieldChanges = {};
  for (const field of fields) {
    if (!sameJson(before.task[field], after.task[field]))
      fieldChanges[field] = { from: before.task[field], to: after.task[field] };
  }
  for (const id of customFieldIds.sort((a, b) => a - b)) {
    fieldChanges[`custom_fields.${id}`] = {
      from: before.task.custom_fields[id] ?? null,
      to: after.task.custom_fields[id] ?? null,
    };
  }
  const entries = Object.entries(fieldChanges) as Array<[ChangedField, { from: unknown; to: unknown }]>;
  const activities = entries.map(([field, { from, to }]) => ({
    task_id: taskId,
    actor_id: origin.actor.id,
    action: 'updated',
    field,
    from_value: JSON.stringify(from),
    to_value: JSON.stringify(to),
    created_at: now,
  }));

  const task = after.task;
  const projectId = after.row.project_id;
  const event = { origin, projectId, occurredAt: now };
  const headline = { key: task.key, title: task.title };
  const events: EventToRecord[] = [{ ...event, type: 'task.updated', data: { task, changes: fieldChanges } }];
  if (fieldChanges.status)
    events.push({ ...event, type: 'task.status_changed', data: { task: headline, ...fieldChanges.status } });
  if (fieldChanges.assignee)
    events.push({ ...event, type: 'task.assigned', data: { task: headline, ...fieldChanges.assignee } });
  await recordWrite(
    tx,
    { projectId, taskId, key: task.key, action: 'updated', before: before.task, task, at: now },
    activities,
    events,
  );
  return { ...after, changes: fieldChanges };
}

/**
 * Runs `write` (a change to one of the task's records, such as a time entry) under the task's
 * lock. When it moves a derived field of the task JSON (`time_spent_minutes`), the task gets the
 * bookkeeping of any update: version + 1 (so its ETag changes with its JSON), updated_at, an
 * activity row, a change record for the changes feed and task.updated, so mirrors built from
 * the feed or from events stay exact. A write that leaves the task JSON as it was touches nothing.
 */
export async function writeTaskRecord<R>(
  tx: Tx,
  origin: ActionOrigin,
  taskId: number,
  write: () => Promise<R>,
): Promise<R> {
  const before = await lockTaskForWrite(tx, taskId);
  const result = await write();
  const written = (await loadSnapshot(tx, taskId))!;
  if (DERIVED_FIELDS.every((field) => sameJson(before.task[field], written.task[field]))) return result;

  const now = tx.clock.nowIso();
  await records.updateTaskColumns(tx.db, taskId, { version: before.row.version + 1, updated_at: now });
  await recordUpdate(tx, origin, before, (await loadSnapshot(tx, taskId))!, DERIVED_FIELDS, [], now);
  return result;
}

/**
 * Deletes a task. Its subtasks are detached first (parent -> null), each through
 * writeTaskUpdate so each gets its own change record and task.updated: nothing changes silently.
 * Activity and followers go with the task; its change records stay (the feed reports the deletion).
 */
export async function writeTaskDelete(tx: Tx, origin: ActionOrigin, taskId: number): Promise<void> {
  await lockTask(tx.db, tx.dialect, taskId);
  const row = await records.findTaskHead(tx.db, taskId);
  if (!row) throw notFound('Task');
  for (const child of await records.childIdsOf(tx.db, taskId))
    await writeTaskUpdate(tx, origin, await lockTaskForWrite(tx, child), { parent_id: null });
  const before = (await loadSnapshot(tx, taskId))!;

  await records.deleteTaskRow(tx.db, taskId);
  const now = tx.clock.nowIso();
  await recordWrite(
    tx,
    { projectId: row.project_id, taskId, key: row.key, action: 'deleted', before: before.task, task: null, at: now },
    [],
    [
      {
        type: 'task.deleted',
        origin,
        projectId: row.project_id,
        occurredAt: now,
        data: { task: { key: row.key, title: row.title } },
      },
    ],
  );
}
