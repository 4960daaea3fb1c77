import { useQueries } from '@tanstack/react-query';
import type { Project } from '../../lib/api-types.ts';
import { usePeople } from '../people/use-people.ts';
import {
  labelsQuery,
  milestonesQuery,
  prioritiesQuery,
  sprintsQuery,
  statusesQuery,
  typesQuery,
} from '../projects/api.ts';
import { useProjects } from '../projects/use-project.ts';
import type { KnownValues } from './completion.ts';

/**
 * The names the query bar offers after an operator: projects, people (by e-mail) and every
 * status, priority, type, label, sprint and milestone of the projects in reach (`project`, or
 * all the caller sees). Read only once `wanted` (the bar was focused), and shared with the
 * boards and lists that read the same lists.
 */
export function useKnownValues(project: string | null, wanted: boolean): KnownValues {
  const projects = useProjects();
  const people = usePeople();
  const inReach: Project[] = wanted ? (projects.data ?? []).filter((p) => !project || p.key === project) : [];
  const lists = useQueries({
    queries: inReach.flatMap((p) => [
      statusesQuery(p),
      prioritiesQuery(p.key),
      typesQuery(p.key),
      labelsQuery(p.key),
      sprintsQuery(p.key),
      milestonesQuery(p.key),
    ]),
  });
  const data = lists.map((l) => l.data);
  const names = (offset: number) =>
    [...new Set(data.filter((_, i) => i % 6 === offset).flatMap((l) => (l ?? []).map((x) => x.name)))].sort();
  return {
    project: (projects.data ?? []).map((p) => p.key),
    assignee: emails(people.data),
    creator: emails(people.data),
    follower: emails(people.data),
    status: names(0),
    priority: names(1),
    type: names(2),
    label: names(3),
    sprint: names(4),
    milestone: names(5),
  };
}

const emails = (people: Array<{ email: string | null; active: boolean }> | undefined) =>
  (people ?? []).filter((p) => p.active && p.email).map((p) => p.email!);
