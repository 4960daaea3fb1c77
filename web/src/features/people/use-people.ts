import { useQuery } from '@tanstack/react-query';
import { peopleQuery } from './api.ts';

export function usePeople() {
  return useQuery(peopleQuery);
}

/** Names of everyone in the organization, for records that carry only user ids. */
export function useNameOf() {
  const people = usePeople();
  return (id: number | null) => (id == null ? '' : (people.data?.find((p) => p.id === id)?.name ?? `#${id}`));
}
