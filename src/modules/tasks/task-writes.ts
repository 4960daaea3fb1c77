import type { AppContext } from '../../context.ts';
import type { Trx } from '../../db/database.ts';
import type { TasksTable } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { type ActionOrigin, recordEvent } from '../../events/record-event.ts';
import { recordActivities } from '../activity/activity.repository.ts';
import { insertTaskChange } from '../changes/changes.repository.ts';
import { loadSnapshot, type TaskSnapshot } from './task.presenter.ts';
import * as records from './task-records.repository.ts';
import { labelIdsOf, lockTask } from './task.repository.ts';
import { DERIVED_FIELDS, type TaskJson, type TrackedField, WRITABLE_FIELDS } from './task.schemas.ts';

/**
 * The only code that writes tasks. Every create, update and delete goes through here so that,
 * in the caller's transaction, it always also writes: the change record the changes feed
 * serves, the outbox events, the activity rows, and the bumped version / updated_at.
 *
 * Values are already resolved (ids, checked against the project's rules); callers validate
 * first (task-input.ts, the workflow transition check, the hierarchy check).
 */
export type TaskValues = Pick<
  TasksTable,
  'title' | 'description' | 'task_type_id' | 'priority_id' | 'status_id' | 'assignee_id' | 'due_date' | 'milestone_id' | 'sprint_id' | 'parent_id'
> & {
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

const COLUMNS = [
  'title',
  'description',
  'task_type_id',
  'priority_id',
  'status_id',
  'assignee_id',
  'due_date',
  'milestone_id',
  'sprint_id',
  'parent_id',
] as const;

function recordChange(trx: Trx, projectId: number, taskId: number, key: string, action: 'created' | 'updated' | 'deleted', task: TaskJson | null, at: string) {
  return insertTaskChange(trx, { project_id: projectId, task_id: taskId, task_key: key, action, task: task === null ? null : JSON.stringify(task), changed_at: at });
}

async function setCustomValues(trx: Trx, taskId: number, values: Array<[fieldId: number, value: unknown]>) {
  for (const [fieldId, value] of values) {
    if (value === null) await records.deleteCustomValue(trx, taskId, fieldId);
    else await records.upsertCustomValue(trx, taskId, fieldId, JSON.stringify(value));
  }
}

const customEntries = (values: Record<number, unknown>) => Object.entries(values).map(([id, value]) => [Number(id), value] as [number, unknown]);

/**
 * Creates a task with the next key of its project. The number comes from an atomic increment
 * of projects.task_counter inside this transaction: concurrent creates queue on the project
 * row, a rolled-back create gives its number back, and a deleted task's number is never reused.
 */
export async function createTaskRecord(
  trx: Trx,
  ctx: AppContext,
  origin: ActionOrigin,
  project: { id: number; key: string },
  values: TaskValues,
): Promise<TaskSnapshot> {
  const number = await records.nextTaskNumber(trx, project.id);
  const now = ctx.clock.nowIso();
  const { label_ids, custom_fields, ...columns } = values;
  const id = await records.insertTask(trx, {
    ...columns,
    project_id: project.id,
    number,
    key: `${project.key}-${number}`,
    version: 1,
    created_by: origin.actor.id,
    created_at: now,
    updated_at: now,
  });
  if (label_ids.length) await records.replaceLabels(trx, id, label_ids);
  await setCustomValues(trx, id, customEntries(custom_fields).filter(([, value]) => value !== null));

  const snapshot = (await loadSnapshot(trx, ctx, id))!;
  await recordActivities(trx, [{ task_id: id, actor_id: origin.actor.id, action: 'created', field: null, from_value: null, to_value: null, created_at: now }]);
  await recordChange(trx, project.id, id, snapshot.task.key, 'created', snapshot.task, now);
  await recordEvent(trx, { type: 'task.created', origin, projectId: project.id, occurredAt: now, data: { task: snapshot.task } });
  return snapshot;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const sameSet = (a: number[], b: number[]) => a.length === b.length && a.every((id) => b.includes(id));

/**
 * Applies resolved changes to one task. Fields equal to their current value are ignored; when
 * nothing differs, nothing is written (no version bump, no event) and `changes` is empty.
 * Otherwise, atomically with the caller's transaction: version + 1, updated_at, one activity
 * row per changed field, one change record, task.updated (plus task.status_changed and
 * task.assigned when those fields moved).
 */
export async function applyTaskUpdate(
  trx: Trx,
  ctx: AppContext,
  origin: ActionOrigin,
  taskId: number,
  changes: TaskChanges,
): Promise<TaskUpdateResult> {
  await lockTask(trx, ctx.dialect, taskId);
  const before = await loadSnapshot(trx, ctx, taskId);
  if (!before) throw notFound('Task');

  const set: Partial<Omit<TaskValues, 'label_ids' | 'custom_fields'>> = {};
  for (const column of COLUMNS) {
    const value = changes[column];
    if (value !== undefined && value !== before.row[column]) Object.assign(set, { [column]: value });
  }
  const labelsChanged = changes.label_ids !== undefined && !sameSet(changes.label_ids, await labelIdsOf(trx, taskId));
  const customChanged = customEntries(changes.custom_fields ?? {}).filter(([id, value]) => !sameJson(before.task.custom_fields[id] ?? null, value));
  if (Object.keys(set).length === 0 && !labelsChanged && customChanged.length === 0) return { ...before, changes: {} };

  const now = ctx.clock.nowIso();
  await records.updateTaskColumns(trx, taskId, { ...set, version: before.row.version + 1, updated_at: now });
  if (labelsChanged) await records.replaceLabels(trx, taskId, changes.label_ids!);
  await setCustomValues(trx, taskId, customChanged);
  const after = (await loadSnapshot(trx, ctx, taskId))!;

  return recordUpdate(trx, origin, before, after, WRITABLE_FIELDS, customChanged.map(([id]) => id), now);
}

/**
 * The bookkeeping of an update whose row changes are already written (version bumped): one
 * activity row per changed field, the change record, task.updated, and task.status_changed /
 * task.assigned when those fields moved.
 */
async function recordUpdate(
  trx: Trx,
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
    if (!sameJson(before.task[field], after.task[field])) fieldChanges[field] = { from: before.task[field], to: after.task[field] };
  }
  for (const id of customFieldIds.sort((a, b) => a - b)) {
    fieldChanges[`custom_fields.${id}`] = { from: before.task.custom_fields[id] ?? null, to: after.task.custom_fields[id] ?? null };
  }
  const entries = Object.entries(fieldChanges) as Array<[ChangedField, { from: unknown; to: unknown }]>;
  await recordActivities(
    trx,
    entries.map(([field, { from, to }]) => ({
      task_id: taskId,
      actor_id: origin.actor.id,
      action: 'updated',
      field,
      from_value: JSON.stringify(from),
      to_value: JSON.stringify(to),
      created_at: now,
    })),
  );

  const task = after.task;
  const projectId = after.row.project_id;
  await recordChange(trx, projectId, taskId, task.key, 'updated', task, now);
  const event = { origin, projectId, occurredAt: now };
  await recordEvent(trx, { ...event, type: 'task.updated', data: { task, changes: fieldChanges } });
  if (fieldChanges.status) {
    await recordEvent(trx, { ...event, type: 'task.status_changed', data: { task: { key: task.key, title: task.title }, ...fieldChanges.status } });
  }
  if (fieldChanges.assignee) {
    await recordEvent(trx, { ...event, type: 'task.assigned', data: { task: { key: task.key, title: task.title }, ...fieldChanges.assignee } });
  }
  return { ...after, changes: fieldChanges };
}

/**
 * Runs `write` (a change to one of the task's records, such as a time entry) under the task's
 * lock. When it moves a derived field of the task JSON (`time_spent_minutes`), the task gets the
 * bookkeeping of any update: version + 1 (so its ETag changes with its JSON), updated_at, an
 * activity row, a change record for the changes feed and task.updated, so mirrors built from
 * the feed or from events stay exact. A write that leaves the task JSON as it was touches nothing.
 */
export async function applyRecordChange<R>(trx: Trx, ctx: AppContext, origin: ActionOrigin, taskId: number, write: () => Promise<R>): Promise<R> {
  await lockTask(trx, ctx.dialect, taskId);
  const before = await loadSnapshot(trx, ctx, taskId);
  if (!before) throw notFound('Task');
  const result = await write();
  const written = (await loadSnapshot(trx, ctx, taskId))!;
  if (DERIVED_FIELDS.every((field) => sameJson(before.task[field], written.task[field]))) return result;

  const now = ctx.clock.nowIso();
  await records.updateTaskColumns(trx, taskId, { version: before.row.version + 1, updated_at: now });
  await recordUpdate(trx, origin, before, (await loadSnapshot(trx, ctx, taskId))!, DERIVED_FIELDS, [], now);
  return result;
}

/**
 * Deletes a task. Its subtasks are detached first (parent -> null), each through
 * applyTaskUpdate so each gets its own change record and task.updated: nothing changes silently.
 * Activity and followers go with the task; its change records stay (the feed reports the deletion).
 */
export async function deleteTaskRecord(trx: Trx, ctx: AppContext, origin: ActionOrigin, taskId: number): Promise<void> {
  await lockTask(trx, ctx.dialect, taskId);
  const row = await records.findTaskHead(trx, taskId);
  if (!row) throw notFound('Task');
  for (const child of await records.childIdsOf(trx, taskId)) await applyTaskUpdate(trx, ctx, origin, child, { parent_id: null });

  await records.deleteTaskRow(trx, taskId);
  const now = ctx.clock.nowIso();
  await recordChange(trx, row.project_id, taskId, row.key, 'deleted', null, now);
  await recordEvent(trx, {
    type: 'task.deleted',
    origin,
    projectId: row.project_id,
    occurredAt: now,
    data: { task: { key: row.key, title: row.title } },
  });
}
