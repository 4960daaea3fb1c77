import { queryOptions } from '@tanstack/react-query';
import type { Task } from '../../lib/api-types.ts';
import { get, qs } from '../../lib/http.ts';

export const searchKeys = { results: (q: string) => ['search', q] as const };

/** Tasks whose title, description or key match `q`, best first. */
export const searchQuery = (q: string) =>
  queryOptions({
    queryKey: searchKeys.results(q),
    enabled: q.length > 0,
    queryFn: ({ signal }) => get<Task[]>(`/api/v1/search/${qs({ q, limit: 20 })}`, signal),
  });
