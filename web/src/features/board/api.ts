import { queryOptions } from '@tanstack/react-query';
import type { Task } from '../../lib/api-types.ts';
import { getAll, qs } from '../../lib/http.ts';
import { taskKeys } from '../tasks/api.ts';
import type { TaskFilters } from '../tasks/filters.ts';

/** Every task of a project matching the server-side filters; `q` narrows by text on the client. */
export const boardTasksQuery = (projectKey: string, filters: TaskFilters) => {
  const { q: _q, ...server } = filters;
  return queryOptions({
    queryKey: [...taskKeys.lists(projectKey), 'board', server],
    queryFn: ({ signal }) => getAll<Task>(`/api/v1/projects/${projectKey}/tasks/${qs({ ...server })}`, signal),
  });
};
