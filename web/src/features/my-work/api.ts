import { queryOptions } from '@tanstack/react-query';
import type { Project, Task } from '../../lib/api-types.ts';
import { getAll } from '../../lib/http.ts';
import { taskKeys } from '../tasks/api.ts';

/** What is assigned to `userId` in every project of `projects`. */
export const myWorkQuery = (userId: number, projects: Project[]) =>
  queryOptions({
    queryKey: [...taskKeys.everywhere, 'mine', projects.map((p) => p.key)],
    queryFn: async ({ signal }) => {
      const lists = await Promise.all(
        projects.map((p) => getAll<Task>(`/api/v1/projects/${p.key}/tasks/?assignee=${userId}`, signal)),
      );
      return lists.flat();
    },
  });
