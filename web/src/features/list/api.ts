import { infiniteQueryOptions } from '@tanstack/react-query';
import type { Task } from '../../lib/api-types.ts';
import { call, qs } from '../../lib/http.ts';
import { taskKeys } from '../tasks/api.ts';
import type { TaskFilters } from '../tasks/filters.ts';

/** The project's tasks a page of 100 at a time, in the server's `ordering`. */
export const taskPagesQuery = (projectKey: string, filters: Omit<TaskFilters, 'q'>, ordering: string) =>
  infiniteQueryOptions({
    queryKey: [...taskKeys.lists(projectKey), 'list', filters, ordering],
    initialPageParam: '',
    queryFn: async ({ pageParam, signal }) => {
      const page = await call<Task[]>(
        `/api/v1/projects/${projectKey}/tasks/${qs({ ...filters, ordering, limit: 100, cursor: pageParam })}`,
        { signal },
      );
      return { tasks: page.data, next: page.pagination?.has_more ? (page.pagination.next_cursor ?? null) : null };
    },
    getNextPageParam: (last) => last.next,
  });
