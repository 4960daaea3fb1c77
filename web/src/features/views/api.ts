import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { Task, View } from '../../lib/api-types.ts';
import { call, del, getAll, patch, post, qs } from '../../lib/http.ts';
import { taskKeys } from '../tasks/api.ts';

/** "My work": a view every person has, not stored. */
export const MY_WORK_QUERY = 'assignee = me() AND status_category != done';

export const viewKeys = { all: ['views'] as const };

/** The saved views the caller sees: its own and those shared with it. */
export const viewsQuery = queryOptions({
  queryKey: viewKeys.all,
  queryFn: ({ signal }) => getAll<View>('/api/v1/views/', signal),
});

export type ViewBody = {
  name: string;
  query: string;
  project: string | null;
  shared: boolean;
  group_by?: View['group_by'];
  columns?: string[];
};
export const createView = (body: ViewBody) => post<View>('/api/v1/views/', { ...body, layout: 'list' });
export const updateView = (id: number, body: Partial<ViewBody>) => patch<View>(`/api/v1/views/${id}/`, body);
export const deleteView = (id: number) => del(`/api/v1/views/${id}/`);

export const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const PAGE = 100;

/**
 * The tasks a query finds across every project the caller sees (or within `project`), 100 at a
 * time in the query's ORDER BY; dates like `today()` in this browser's time zone.
 */
export const queryTasksQuery = (q: string, project: string | null) =>
  infiniteQueryOptions({
    queryKey: [...taskKeys.everywhere, 'query', project, q],
    initialPageParam: 0,
    queryFn: async ({ pageParam, signal }) => {
      const base = project ? `/api/v1/projects/${project}/tasks/` : '/api/v1/tasks/';
      const page = await call<Task[]>(`${base}${qs({ q, tz: TIME_ZONE, limit: PAGE, offset: pageParam })}`, {
        signal,
      });
      const total = page.pagination?.count ?? page.data.length;
      return { tasks: page.data, total, next: pageParam + PAGE < total ? pageParam + PAGE : null };
    },
    getNextPageParam: (last) => last.next,
    // A query that cannot run is the person's to fix, not the network's.
    retry: false,
  });
