import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Task } from '../../lib/api-types.ts';
import { ApiError, call, getAll, qs } from '../../lib/http.ts';
import { errorNotice, useNotify } from '../../ui/index.ts';
import { taskKeys } from '../tasks/api.ts';
import { timeZone } from './dates.ts';

/** Where a task sits in time: from its start (or its due date alone) to its due date. */
export interface Span {
  start: string;
  end: string;
}

export function spanOf(task: Pick<Task, 'due_date' | 'start_date'>): Span | null {
  const start = task.start_date ?? task.due_date;
  const end = task.due_date ?? task.start_date;
  return start && end ? { start, end } : null;
}

/**
 * The dates a task gets when its span moves to `to`: moved whole, only the ones it has (a task
 * due on a day gets no start); by one end, that end's date alone.
 */
export function datesFor(
  task: Pick<Task, 'due_date' | 'start_date'>,
  to: Span,
  edge: 'both' | 'start' | 'end' = 'both',
): Partial<Pick<Task, 'due_date' | 'start_date'>> {
  if (edge === 'start') return { start_date: to.start };
  if (edge === 'end') return { due_date: to.end };
  return {
    ...(task.start_date ? { start_date: to.start } : {}),
    ...(task.due_date ? { due_date: to.end } : {}),
  };
}

/** The query condition for tasks whose span meets the days from `from` to `to`. */
export const overlapping = (from: string, to: string) =>
  `(start <= ${to} OR (start IS EMPTY AND due <= ${to})) AND (due >= ${from} OR (due IS EMPTY AND start >= ${from}))`;

/** The part of a query before its ORDER BY, which the screens replace with their own. */
export function conditionsOf(query: string): string {
  const at = query.search(/\border\s+by\b/i);
  return (at >= 0 ? query.slice(0, at) : query).trim();
}

/** `a AND b` of the non-empty conditions, each in parentheses so an OR inside stays inside. */
export const allOf = (...conditions: string[]): string =>
  conditions
    .filter((c) => c.trim() !== '')
    .map((c) => `(${c})`)
    .join(' AND ');

export const planningKeys = {
  /** Under the project's list prefix, so a change to any of its tasks refreshes these too. */
  range: (scope: string, query: string) =>
    [...(scope === '*' ? taskKeys.everywhere : taskKeys.lists(scope)), 'planning', query] as const,
};

/** Every task matching `query` (the query language), across the projects the person sees. */
export const fetchQuery = (query: string, signal?: AbortSignal) =>
  getAll<Task>(`/api/v1/tasks/${qs({ q: query, tz: timeZone() })}`, signal);

/** The conflict the API names when a task would start before an open blocker is due. */
export interface Blocker {
  key: string;
  title: string;
  due_date: string | null;
}

export function blockersOf(error: unknown): Blocker[] {
  if (!(error instanceof ApiError) || error.code !== 'SCHEDULE_CONFLICT') return [];
  const blockers = error.details.blockers;
  return Array.isArray(blockers) ? (blockers as Blocker[]) : [];
}

/** Why a move was refused, naming the blockers when the schedule rule refused it. */
export function refusalMessage(key: string, error: unknown): string {
  const blockers = blockersOf(error);
  if (blockers.length) {
    const names = blockers.map((b) => `${b.key} “${b.title}”${b.due_date ? ` (due ${b.due_date})` : ''}`).join(', ');
    return `${key} cannot start before ${names}, which ${blockers.length === 1 ? 'blocks' : 'block'} it, ${blockers.length === 1 ? 'is' : 'are'} due: its dates stay as they were.`;
  }
  return `${key} keeps its dates: ${errorNotice(error).message}`;
}

/** A refused move, kept so the person can read why and, for a schedule conflict, move it anyway. */
export interface Move {
  task: Task;
  to: Span;
  /** The whole span moved, or only its start or its due date. */
  edge?: 'both' | 'start' | 'end';
  /** Write a start before an open blocker's due date (the person confirmed it). */
  force?: boolean;
}

export interface Refusal extends Move {
  message: string;
  conflict: boolean;
}

/** Puts `task` in every cached planning list of its project (and across projects), where it is. */
function placeTask(client: QueryClient, task: Task) {
  for (const prefix of [taskKeys.lists(task.project), taskKeys.everywhere])
    client.setQueriesData<Task[]>({ queryKey: [...prefix, 'planning'] }, (tasks) =>
      tasks?.map((t) => (t.key === task.key ? task : t)),
    );
}

/**
 * Moves a task to new dates with one update: at once on screen, put back with the reason
 * (the blockers named) when the service refuses.
 */
export function useMoveDates(onRefused: (refusal: Refusal) => void) {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    // `force` writes a start before an open blocker's due date, once the person confirmed it.
    mutationFn: async ({ task, to, edge, force }: Move) => {
      const result = await call<Task>(`/api/v1/tasks/${task.key}/`, {
        method: 'PUT',
        body: { ...datesFor(task, to, edge), ...(force ? { force: true } : {}) },
      });
      return { task: result.data, etag: result.etag };
    },
    meta: { quiet: true },
    onMutate: async ({ task, to, edge }) => {
      await client.cancelQueries({ queryKey: taskKeys.lists(task.project) });
      placeTask(client, { ...task, ...datesFor(task, to, edge) });
    },
    onError: (error, { task, to, edge }) => {
      placeTask(client, task);
      const message = refusalMessage(task.key, error);
      notify({ ...errorNotice(error), message });
      onRefused({ task, to, edge, message, conflict: blockersOf(error).length > 0 });
    },
    onSuccess: (saved) => {
      placeTask(client, saved.task);
      client.setQueryData(taskKeys.task(saved.task.key), saved);
    },
  });
}
