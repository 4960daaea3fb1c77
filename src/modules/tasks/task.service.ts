import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { foundOr404 } from '../../http/errors.ts';
import type { Principal } from '../../identity/principal.ts';
import { authorize, projectFor, type ProjectRef } from '../../policy/index.ts';
import { findVisibleTaskRef, lockTaskIfExists, type TaskRef } from './task.repository.ts';

/**
 * Finding a task for a caller: the entry point of every task route and of every task
 * sub-resource (comments, attachments, links, time entries). Reads live in task-read.service.ts,
 * writes in task-lifecycle.service.ts and task-bulk.service.ts, followers and activity in their
 * own files; the rules are in docs/domain/tasks.md.
 */

/** The project by key if the caller may add and change its tasks (404 if invisible, 403 for viewers). */
export const writableProject = (ctx: AppContext, principal: Principal, key: string): Promise<ProjectRef> =>
  projectFor(ctx.db, principal, { key }, 'project.contribute', 'tasks');

/** The task if the caller can see it (404 otherwise): the entry point of every task sub-resource. */
export async function visibleTask(ctx: AppContext, principal: Principal, key: string): Promise<TaskRef> {
  return foundOr404(findVisibleTaskRef(ctx.db, principal, key), 'Task');
}

/** As visibleTask, and the caller may change it (project viewers get 403). */
export async function writableTask(ctx: AppContext, principal: Principal, key: string): Promise<TaskRef> {
  const task = await visibleTask(ctx, principal, key);
  authorize(principal, 'project.contribute', { kind: 'project', project: task.project }, 'tasks');
  return task;
}

/**
 * For writes of a task's records (comments, attachments): holds the task for the transaction and
 * confirms it still exists, so a task deleted since the visibility check is a 404 rather than a
 * foreign-key failure.
 */
export async function lockExistingTask(tx: Tx, taskId: number): Promise<{ key: string; title: string }> {
  return foundOr404(lockTaskIfExists(tx.db, tx.dialect, taskId), 'Task');
}
