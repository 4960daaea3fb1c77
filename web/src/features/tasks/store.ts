import type { QueryClient } from '@tanstack/react-query';
import type { Task } from '../../lib/api-types.ts';
import { cardOf, placeOnBoards, versionOf } from '../board/api.ts';
import { taskKeys } from './api.ts';

/** Puts a saved task in the cache, moves its card on open boards, and marks its project's other lists and its history stale. */
export function storeTask(client: QueryClient, task: Task, etag: string | null): void {
  client.setQueryData(taskKeys.task(task.key), { task, etag });
  placeOnBoards(client, task.project, task.key, cardOf(task, versionOf(etag)), true);
  void client.invalidateQueries({
    queryKey: taskKeys.lists(task.project),
    predicate: (query) => query.queryKey[2] !== 'board',
  });
  void client.invalidateQueries({ queryKey: taskKeys.activities(task.key) });
}

export type TaskField = 'status' | 'labels';
let pending: TaskField | null = null;

/** Asks the task view to put the focus on one of its fields, now or once it shows. */
export function requestField(field: TaskField): void {
  pending = field;
  window.dispatchEvent(new Event('tt:field'));
}

/** The field asked for and not focused yet (taken once). */
export function takeRequestedField(): TaskField | null {
  const field = pending;
  pending = null;
  return field;
}
