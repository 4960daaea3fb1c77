import type { QueryClient } from '@tanstack/react-query';
import type { LiveChange } from '../../lib/live-change.ts';
import { taskKeys } from './api.ts';

/** Refreshes what shows the task a `task` or `comment` event names. */
export function applyTaskChange(client: QueryClient, change: LiveChange): void {
  if (change.kind === 'project' || !change.key) return;
  void client.invalidateQueries({ queryKey: taskKeys.lists(change.project) });
  void client.invalidateQueries({ queryKey: taskKeys.everywhere });
  void client.invalidateQueries({ queryKey: taskKeys.task(change.key) });
}
