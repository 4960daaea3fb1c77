import type { Task } from '../../lib/api-types.ts';

/** The board's and list's filters, kept in the URL so a filtered view can be shared and survives a reload. */
export interface TaskFilters {
  assignee?: string;
  label?: string;
  task_type?: string;
  priority?: string;
  sprint?: string;
  milestone?: string;
  q?: string;
}

export const FILTER_NAMES = ['assignee', 'label', 'task_type', 'priority', 'sprint', 'milestone', 'q'] as const;

export function filtersFrom(search: string): TaskFilters {
  const params = new URLSearchParams(search);
  const filters: TaskFilters = {};
  for (const name of FILTER_NAMES) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  return filters;
}

export function matchesText(task: Pick<Task, 'title' | 'key'>, q: string | undefined): boolean {
  if (!q) return true;
  const needle = q.toLowerCase();
  return task.title.toLowerCase().includes(needle) || task.key.toLowerCase().includes(needle);
}

/** The current screen's address with the task open beside it (`?task=KEY`), or closed (null). */
export function withTask(key: string | null): string {
  const params = new URLSearchParams(window.location.search);
  if (key) params.set('task', key);
  else params.delete('task');
  const search = params.toString();
  return `${window.location.pathname}${search ? `?${search}` : ''}`;
}
