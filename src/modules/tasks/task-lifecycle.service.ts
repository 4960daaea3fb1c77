import type { Trx } from '../../db/database.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { ApiError, invalid } from '../../http/errors.ts';
import { removeStoredFiles } from '../attachments/attachment.files.ts';
import { storageNamesOf } from '../attachments/attachment.repository.ts';
import { lockFields } from '../custom-fields/custom-fields.repository.ts';
import { isStoredId } from '../custom-fields/values.ts';
import type { ProjectRef } from '../../policy/index.ts';
import { lockProject } from '../projects/projects.repository.ts';
import { TaskInputResolver } from './task-input.ts';
import { openBlockersDueAfter, statusName } from './task-input.repository.ts';
import { findTransitionBetween } from '../workflows/transitions.repository.ts';
import { etagOf, type TaskSnapshot } from './task.presenter.ts';
import type { TaskRef, TaskRow } from './task.repository.ts';
import type { TaskCreateInput, TaskUpdateInput } from './task.schemas.ts';
import type { Caller } from '../../identity/caller.ts';
import { writableProject, writableTask } from './task.service.ts';
import {
  lockTaskForWrite,
  reserveTaskNumber,
  type TaskValues,
  writeTaskCreate,
  writeTaskDelete,
  writeTaskUpdate,
} from './task-writes.ts';

/**
 * Creating, changing, assigning and deleting one task, each in the caller's unit of work: every
 * check runs before the first write, and task-writes.ts does the writing and its bookkeeping.
 */

/** `If-Match` (RFC 9110): `*` or a list of entity tags; W/ prefixes are tolerated because proxies add them. */
function assertIfMatch(ifMatch: string | undefined, row: TaskRow): void {
  if (ifMatch === undefined) return;
  const current = etagOf(row.version);
  const tags = ifMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (!tags.includes('*') && !tags.includes(current)) {
    throw new ApiError(
      'PRECONDITION_FAILED',
      'The task changed since you read it (If-Match does not match its ETag). Read it again and retry.',
      {
        etag: current,
      },
    );
  }
}

const blank = (errors: Record<string, string>) => Object.keys(errors).length === 0;

/** Custom field ids a set of inputs writes; their definitions are locked before any task (see lockFields). */
export const customFieldIds = (inputs: Array<{ custom_fields?: Record<string, unknown> }>) => [
  ...new Set(
    inputs.flatMap((input) =>
      Object.keys(input.custom_fields ?? {})
        .map(Number)
        .filter(isStoredId),
    ),
  ),
];

/** Creates one task in the open transaction; a bad input throws before anything is written. */
export async function createOne(
  tx: Tx,
  project: ProjectRef,
  resolver: TaskInputResolver,
  caller: Caller,
  input: TaskCreateInput,
): Promise<TaskSnapshot> {
  // Taking the number holds the project row from here to commit, for the numbering and the
  // hierarchy checks alike (see reserveTaskNumber); a refused create gives the number back.
  const reserved = await reserveTaskNumber(tx, project.id);
  await lockFields(tx.db, tx.dialect, customFieldIds([input]), 'share');
  const { changes, errors } = await resolver.resolve(input, null);
  if (!blank(errors)) throw invalid(errors);
  const values: TaskValues = {
    title: input.title,
    description: '',
    assignee_id: null,
    due_date: null,
    start_date: null,
    estimate: null,
    milestone_id: null,
    sprint_id: null,
    parent_id: null,
    label_ids: [],
    custom_fields: {},
    ...(await resolver.defaults(reserved.defaults)),
    ...changes,
  };
  return writeTaskCreate(tx, caller.origin, project, reserved.number, values);
}

/** A status change must follow a transition of the project's workflow (422 INVALID_TRANSITION otherwise). */
async function assertTransition(trx: Trx, project: ProjectRef, current: TaskRow, toStatusId: number): Promise<void> {
  if (
    project.workflow_id !== null &&
    (await findTransitionBetween(trx, project.workflow_id, current.status_id, toStatusId))
  )
    return;
  const to = await statusName(trx, toStatusId);
  throw new ApiError(
    'INVALID_TRANSITION',
    `The project's workflow has no transition from "${current.status}" to "${to}".`,
    {
      from: current.status,
      to,
    },
  );
}

/**
 * The schedule rule (docs/api/planning.md): a task is not moved to start before the due date of
 * an open task that blocks it, among the blockers the caller can see.
 */
async function assertSchedule(tx: Tx, caller: Caller, task: TaskRow, startDate: string): Promise<void> {
  const blockers = await openBlockersDueAfter(tx.db, caller.principal, task.id, startDate);
  if (blockers.length === 0) return;
  const named = blockers.map((b) => `${b.key} (due ${b.due_date})`).join(', ');
  throw new ApiError(
    'SCHEDULE_CONFLICT',
    `${task.key} would start on ${startDate}, before ${named} that blocks it is due. Send force: true to write it anyway.`,
    { blockers },
  );
}

/** Updates one task, locked and read in this transaction (`current`); every check runs before the first write. */
export async function updateOne(
  tx: Tx,
  project: ProjectRef,
  resolver: TaskInputResolver,
  caller: Caller,
  current: TaskSnapshot,
  input: TaskUpdateInput,
) {
  const { changes, errors } = await resolver.resolve(input, current.row);
  if (!blank(errors)) throw invalid(errors);
  if (!input.force && changes.start_date && changes.start_date !== current.row.start_date)
    await assertSchedule(tx, caller, current.row, changes.start_date);
  // Setting the status a task already has is a no-op, not a transition.
  if (changes.status_id !== undefined && changes.status_id !== current.row.status_id)
    await assertTransition(tx.db, project, current.row, changes.status_id);
  return writeTaskUpdate(tx, caller.origin, current, changes);
}

/**
 * Locks the task and reads it. Locks are always taken in one order: the project row (when the
 * tree may change), the custom field definitions being written, then tasks.
 */
async function lockAndRead(tx: Tx, ref: TaskRef, treeChanges: boolean, fieldIds: number[] = []): Promise<TaskSnapshot> {
  if (treeChanges) await lockProject(tx.db, tx.dialect, ref.project.id);
  await lockFields(tx.db, tx.dialect, fieldIds, 'share');
  return lockTaskForWrite(tx, ref.id);
}

export async function createTask(
  tx: Tx,
  caller: Caller,
  projectKey: string,
  input: TaskCreateInput,
): Promise<TaskSnapshot> {
  const project = await writableProject(tx, caller.principal, projectKey);
  return createOne(tx, project, new TaskInputResolver(tx.db, caller.principal, project), caller, input);
}

export async function createSubtask(
  tx: Tx,
  caller: Caller,
  parentKey: string,
  input: Omit<TaskCreateInput, 'parent'>,
): Promise<TaskSnapshot> {
  const parent = await writableTask(tx, caller.principal, parentKey);
  return createOne(tx, parent.project, new TaskInputResolver(tx.db, caller.principal, parent.project), caller, {
    ...input,
    parent: parent.key,
  });
}

export async function updateTask(
  tx: Tx,
  caller: Caller,
  key: string,
  input: TaskUpdateInput,
  ifMatch?: string,
): Promise<TaskSnapshot> {
  const ref = await writableTask(tx, caller.principal, key);
  const current = await lockAndRead(tx, ref, input.parent !== undefined, customFieldIds([input]));
  assertIfMatch(ifMatch, current.row);
  return updateOne(
    tx,
    ref.project,
    new TaskInputResolver(tx.db, caller.principal, ref.project),
    caller,
    current,
    input,
  );
}

export function assignTask(
  tx: Tx,
  caller: Caller,
  key: string,
  assignee: number | null,
  ifMatch?: string,
): Promise<TaskSnapshot> {
  return updateTask(tx, caller, key, { assignee }, ifMatch);
}

export async function deleteTask(tx: Tx, caller: Caller, key: string, ifMatch?: string): Promise<void> {
  const ref = await writableTask(tx, caller.principal, key);
  const current = await lockAndRead(tx, ref, true);
  assertIfMatch(ifMatch, current.row);
  // Attachment rows go with the task (cascade); their files are removed once that has committed.
  const files = await storageNamesOf(tx.db, { taskId: ref.id });
  await writeTaskDelete(tx, caller.origin, ref.id);
  tx.afterCommit(() => removeStoredFiles(tx, files));
}
