import { queryOptions } from '@tanstack/react-query';
import { get, patch, post } from '../../lib/http.ts';

/** A person or service account of the organization (console API). */
export interface Person {
  id: number;
  kind: 'human' | 'service';
  email: string | null;
  name: string;
  role: string;
  active: boolean;
}

export const peopleKeys = { all: ['people'] as const };

/** Everyone in the organization, shared by every screen that names people. */
export const peopleQuery = queryOptions({
  queryKey: peopleKeys.all,
  queryFn: ({ signal }) => get<Person[]>('/api/console/people/', signal),
  retry: false,
});

export const updatePerson = (id: number, body: { role?: string; active?: boolean }) =>
  patch<Person>(`/api/console/people/${id}/`, body);

export const createServiceAccount = (name: string) =>
  post<Person>('/api/console/service-accounts/', { name, role: 'member' });
