import { isoFromMicros } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import { invalid } from '../../http/errors.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { readableProjectByKey, visibleAmongKeyed } from '../../policy/index.ts';
import { presentListedTasks, presentTaskRow } from './task.presenter.ts';
import { taskListPage, tasksByKey, type TaskSet } from './task-list.repository.ts';
import type { TaskListFilter } from './task.repository.ts';
import type { TaskJson, TaskListFilters } from './task.schemas.ts';
import { pageOfQuery } from './task-query.service.ts';
import { visibleTask } from './task.service.ts';

/** One page of `set` in a list's ordering, as task JSON (see taskListPage). */
export async function pageOfTasks(ctx: AppContext, set: TaskSet, page: PageRequest) {
  const { tasks, pagination } = await taskListPage(ctx, set, page);
  return { data: presentListedTasks(tasks), pagination };
}

const csv = (value: string) =>
  value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

/** ISO 8601 with any offset -> the stored form (UTC, microseconds), which compares as text. */
function storedTimestamp(field: string, value: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw invalid({ [field]: 'not a valid ISO 8601 timestamp' });
  const fraction = /\.(\d+)/.exec(value)?.[1] ?? '';
  return isoFromMicros(ms * 1000 + Number(fraction.slice(3, 6).padEnd(3, '0')));
}

/** `none` asks for no value; anything else is an id, refused when it cannot be one. */
function idFilter(field: string, value: string | undefined): number | null | undefined {
  if (value === undefined || value === 'none') return value === 'none' ? null : undefined;
  const id = Number(value);
  if (id > 2147483647) throw invalid({ [field]: 'not a valid id' });
  return id;
}

/** The list's query string as checked filters (a bad id or timestamp is a 400). */
export function listFilter(filters: Partial<TaskListFilters>): TaskListFilter {
  return {
    ...(filters.status ? { statuses: csv(filters.status) } : {}),
    ...(filters.status_category
      ? { statusCategories: csv(filters.status_category) as Array<'todo' | 'in_progress' | 'done'> }
      : {}),
    ...(filters.task_type ? { taskTypes: csv(filters.task_type) } : {}),
    ...(filters.priority ? { priorities: csv(filters.priority) } : {}),
    assignee: idFilter('assignee', filters.assignee),
    milestone: idFilter('milestone', filters.milestone),
    sprint: idFilter('sprint', filters.sprint),
    ...(filters.parent ? { parentKey: filters.parent === 'none' ? null : filters.parent } : {}),
    ...(filters.label ? { labels: csv(filters.label) } : {}),
    ...(filters.updated_since ? { updatedSince: storedTimestamp('updated_since', filters.updated_since) } : {}),
    ...(filters.due_before ? { dueBefore: filters.due_before } : {}),
    ...(filters.due_after ? { dueAfter: filters.due_after } : {}),
  };
}

export async function listTasks(
  ctx: AppContext,
  principal: Principal,
  projectKey: string,
  filters: TaskListFilters,
  page: PageRequest,
) {
  const project = await readableProjectByKey(ctx.db, principal, projectKey);
  const matching: TaskSet = { projectId: project.id, filter: listFilter(filters) };
  if (filters.q === undefined) return pageOfTasks(ctx, matching, page);
  return pageOfQuery(
    ctx,
    principal,
    matching,
    [project],
    { q: filters.q, tz: filters.tz, ordering: filters.ordering },
    page,
  );
}

/**
 * A task by key, read in one statement with the auth epoch. `confirm` receives that epoch and
 * answers the caller as of it (authenticating again when its cached principal is older), so the
 * caller's cache is checked without a statement of its own (src/identity/auth-hook.ts).
 */
export async function getTask(
  ctx: AppContext,
  key: string,
  confirm: (authEpoch: number) => Promise<Principal>,
): Promise<{ task: TaskJson; version: number }> {
  const { authEpoch, tasks } = await tasksByKey(ctx, key);
  const principal = await confirm(authEpoch);
  const row = await visibleAmongKeyed(ctx.db, principal, tasks, 'Task');
  return { task: presentTaskRow(row, row), version: row.version };
}

export async function listSubtasks(ctx: AppContext, principal: Principal, key: string, page: PageRequest) {
  const ref = await visibleTask(ctx, principal, key);
  return pageOfTasks(ctx, { parentId: ref.id }, page);
}
