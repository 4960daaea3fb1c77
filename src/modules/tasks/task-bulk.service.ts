import type { Tx } from '../../db/unit-of-work.ts';
import { ApiError } from '../../http/errors.ts';
import { lockFields } from '../custom-fields/custom-fields.repository.ts';
import { lockProject } from '../projects/projects.repository.ts';
import { TaskInputResolver } from './task-input.ts';
import { createOne, customFieldIds, updateOne } from './task-lifecycle.service.ts';
import { loadSnapshot, type TaskSnapshot } from './task.presenter.ts';
import { lockTask, taskIdsByKeys } from './task.repository.ts';
import type { TaskCreateInput, TaskJson, TaskUpdateInput } from './task.schemas.ts';
import type { Caller } from '../../identity/caller.ts';
import { writableProject } from './task.service.ts';

/** Bulk create and bulk update: up to 100 tasks of one project, all or nothing, every refusal reported. */

export interface BulkItemError {
  index: number;
  key?: string;
  code: string;
  message: string;
  fields: Record<string, string>;
  [detail: string]: unknown;
}

/** The field a non-validation refusal is about, so every item error names one. */
const FIELD_OF_CODE: Record<string, string> = { INVALID_TRANSITION: 'status', NOT_FOUND: 'key' };

function itemError(index: number, key: string | undefined, error: ApiError): BulkItemError {
  const { fields, ...rest } = error.details as { fields?: Record<string, string> };
  return {
    index,
    ...(key !== undefined ? { key } : {}),
    code: error.code,
    message: error.message,
    fields: fields ?? { [FIELD_OF_CODE[error.code] ?? 'item']: error.message },
    ...rest,
  };
}

export function bulkFailure(items: BulkItemError[]): ApiError {
  const noun = items.length === 1 ? 'item was' : 'items were';
  return new ApiError('VALIDATION_ERROR', `${items.length} ${noun} refused; nothing was changed. See details.items.`, {
    items,
  });
}

/**
 * Runs every item in the caller's unit of work. A refused item does not stop the others from
 * being checked (so the caller learns about all of them), but any refusal throws, which rolls
 * everything back.
 */
async function runBulk<I>(
  items: I[],
  keyOf: (item: I) => string | undefined,
  run: (item: I) => Promise<TaskSnapshot>,
): Promise<TaskJson[]> {
  const results: TaskJson[] = [];
  const failures: BulkItemError[] = [];
  for (const [index, item] of items.entries()) {
    try {
      results.push((await run(item)).task);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      failures.push(itemError(index, keyOf(item), error));
    }
  }
  if (failures.length) throw bulkFailure(failures);
  return results;
}

export async function bulkCreate(
  tx: Tx,
  caller: Caller,
  projectKey: string,
  items: TaskCreateInput[],
): Promise<TaskJson[]> {
  const project = await writableProject(tx, caller.principal, projectKey);
  const resolver = new TaskInputResolver(tx.db, caller.principal, project);
  return runBulk(
    items,
    () => undefined,
    (item) => createOne(tx, project, resolver, caller, item),
  );
}

export async function bulkUpdate(
  tx: Tx,
  caller: Caller,
  projectKey: string,
  items: Array<TaskUpdateInput & { key: string }>,
): Promise<TaskJson[]> {
  const project = await writableProject(tx, caller.principal, projectKey);
  const resolver = new TaskInputResolver(tx.db, caller.principal, project);
  if (items.some((item) => item.parent !== undefined)) await lockProject(tx.db, tx.dialect, project.id);
  await lockFields(tx.db, tx.dialect, customFieldIds(items), 'share');
  // Every task of the call is locked up front in id order, so two bulk calls touching the
  // same tasks in different orders queue instead of deadlocking.
  const tasks = await taskIdsByKeys(tx.db, project.id, [...new Set(items.map((item) => item.key))]);
  for (const task of tasks) await lockTask(tx.db, tx.dialect, task.id);
  const idOf = new Map(tasks.map((t) => [t.key, t.id]));
  return runBulk(
    items,
    (item) => item.key,
    async ({ key, ...input }) => {
      const id = idOf.get(key);
      const current = id === undefined ? undefined : await loadSnapshot(tx, id);
      if (!current) throw new ApiError('NOT_FOUND', `No task ${key} in project ${project.key}.`);
      return updateOne(tx, project, resolver, caller, current, input);
    },
  );
}
