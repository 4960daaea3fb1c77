import type { QueryClient } from '@tanstack/react-query';
import type { LiveChange } from '../../lib/live-change.ts';
import { projectKeys } from './api.ts';

/** A project's settings changed (statuses, workflow, members, labels, …): read them again. */
export function applyProjectChange(client: QueryClient, change: LiveChange): void {
  if (change.kind !== 'project') return;
  void client.invalidateQueries({ queryKey: projectKeys.all });
  void client.invalidateQueries({ queryKey: projectKeys.project(change.project) });
}
