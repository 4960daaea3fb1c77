import { infiniteQueryOptions } from '@tanstack/react-query';
import type { Task } from '../../lib/api-types.ts';
import { call, qs } from '../../lib/http.ts';
import { taskKeys } from '../tasks/api.ts';
import type { TaskFilters } from '../tasks/filters.ts';

/** The API's largest page: with the rows virtualized, fewer and larger reads reach the end sooner. */
export const LIST_PAGE = 200;
const COUNT_MARGIN = 1000;

/**
 * The project's tasks a page of 200 at a time, in the server's `ordering`. Offset pages, since
 * cursor mode ignores `ordering`; each answer's `count` says whether another page follows, and
 * how many match when they are fewer than 1,000 past the page.
 */
export const taskPagesQuery = (projectKey: string, filters: Omit<TaskFilters, 'q'>, ordering: string) =>
  infiniteQueryOptions({
    queryKey: [...taskKeys.lists(projectKey), 'list', filters, ordering],
    initialPageParam: 0,
    queryFn: async ({ pageParam, signal }) => {
      const page = await call<Task[]>(
        `/api/v1/projects/${projectKey}/tasks/${qs({ ...filters, ordering, limit: LIST_PAGE, offset: pageParam })}`,
        { signal },
      );
      const total = page.pagination?.count ?? page.data.length;
      // The server counts up to 1,000 past the page; a count beyond says "more than that"
      // (docs/api/pagination.md), not a total to show.
      const exact = total <= pageParam + LIST_PAGE + COUNT_MARGIN;
      return {
        tasks: page.data,
        total: exact ? total : undefined,
        next: pageParam + LIST_PAGE < total ? pageParam + LIST_PAGE : null,
      };
    },
    getNextPageParam: (last) => last.next,
  });
