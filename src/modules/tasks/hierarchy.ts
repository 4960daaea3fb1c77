import type { Executor } from '../../db/database.ts';
import { childIdsOfAny, parentIdOf } from './task-input.repository.ts';
import { MAX_TASK_DEPTH } from './task.schemas.ts';

/** The task and its ancestors, nearest first; the walk stops once it is deeper than allowed. */
async function chainUp(db: Executor, taskId: number): Promise<number[]> {
  const chain = [taskId];
  while (chain.length <= MAX_TASK_DEPTH) {
    const parentId = await parentIdOf(db, chain.at(-1)!);
    if (!parentId) break;
    chain.push(parentId);
  }
  return chain;
}

/** Levels in the subtree rooted at the task, the task included (a leaf is 1). */
async function subtreeHeight(db: Executor, taskId: number): Promise<number> {
  let level = [taskId];
  let height = 1;
  while (height <= MAX_TASK_DEPTH) {
    const children = await childIdsOfAny(db, level);
    if (children.length === 0) break;
    height++;
    level = children;
  }
  return height;
}

/**
 * Why `parentId` cannot become the parent of `taskId` (null for a task being created), or
 * null when it can: a task cannot be its own ancestor, and the tree stays within
 * MAX_TASK_DEPTH levels counting the task's own subtasks.
 */
export async function parentProblem(db: Executor, taskId: number | null, parentId: number): Promise<string | null> {
  const chain = await chainUp(db, parentId);
  if (taskId !== null && chain.includes(taskId)) return 'a task cannot become its own ancestor (or its own parent)';
  const height = taskId === null ? 1 : await subtreeHeight(db, taskId);
  if (chain.length + height > MAX_TASK_DEPTH) {
    return `subtasks nest at most ${MAX_TASK_DEPTH} levels deep; this parent is at level ${chain.length} and the task brings ${height} level(s)`;
  }
  return null;
}
