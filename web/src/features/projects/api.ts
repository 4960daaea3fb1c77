import { queryOptions } from '@tanstack/react-query';
import type {
  CustomField,
  Label,
  Membership,
  Milestone,
  Priority,
  Project,
  Sprint,
  Status,
  TaskType,
  Workflow,
} from '../../lib/api-types.ts';
import { get, getAll, patch, post } from '../../lib/http.ts';

/**
 * A project's settings are one resource each, under the project's key: a live `project`
 * change invalidates `projectKeys.project(key)` and everything under it is read again.
 */
export const projectKeys = {
  all: ['projects'] as const,
  project: (key: string) => ['project', key] as const,
  statuses: (key: string) => ['project', key, 'statuses'] as const,
  workflow: (key: string) => ['project', key, 'workflow'] as const,
  members: (key: string) => ['project', key, 'members'] as const,
  types: (key: string) => ['project', key, 'types'] as const,
  priorities: (key: string) => ['project', key, 'priorities'] as const,
  labels: (key: string) => ['project', key, 'labels'] as const,
  sprints: (key: string) => ['project', key, 'sprints'] as const,
  milestones: (key: string) => ['project', key, 'milestones'] as const,
  customFields: (key: string) => ['project', key, 'custom-fields'] as const,
};

export const projectsQuery = queryOptions({
  queryKey: projectKeys.all,
  queryFn: ({ signal }) => getAll<Project>('/api/v1/projects/?ordering=name', signal),
});

export const statusesQuery = (project: Project) =>
  queryOptions({
    queryKey: projectKeys.statuses(project.key),
    queryFn: async ({ signal }) =>
      (await getAll<Status>(`/api/v1/statuses/?project=${project.id}`, signal)).sort((a, b) => a.position - b.position),
  });

export const workflowQuery = (project: Project) =>
  queryOptions({
    queryKey: projectKeys.workflow(project.key),
    enabled: project.workflow != null,
    queryFn: ({ signal }) => get<Workflow>(`/api/v1/workflows/${project.workflow}/`, signal),
  });

export const membersQuery = (project: Project) =>
  queryOptions({
    queryKey: projectKeys.members(project.key),
    queryFn: ({ signal }) => getAll<Membership>(`/api/v1/memberships/?project=${project.id}`, signal),
  });

const projectList = <T>(kind: 'task-types' | 'priorities' | 'labels' | 'sprints' | 'milestones') => {
  const keyOf = {
    'task-types': projectKeys.types,
    priorities: projectKeys.priorities,
    labels: projectKeys.labels,
    sprints: projectKeys.sprints,
    milestones: projectKeys.milestones,
  }[kind];
  return (projectKey: string) =>
    queryOptions({
      queryKey: keyOf(projectKey),
      queryFn: ({ signal }) => getAll<T>(`/api/v1/projects/${projectKey}/${kind}/`, signal),
    });
};

export const typesQuery = projectList<TaskType>('task-types');
export const prioritiesQuery = projectList<Priority>('priorities');
export const labelsQuery = projectList<Label>('labels');
export const sprintsQuery = projectList<Sprint>('sprints');
export const milestonesQuery = projectList<Milestone>('milestones');

/** The custom fields that apply to a project, options in the order they are offered. */
export const customFieldsQuery = (project: Project) =>
  queryOptions({
    queryKey: projectKeys.customFields(project.key),
    queryFn: ({ signal }) => getAll<CustomField>(`/api/v1/custom-fields/?project=${project.id}&ordering=name`, signal),
  });

export const createProject = (body: { name: string; key: string }) => post<Project>('/api/v1/projects/', body);
export const renameProject = (project: Project, name: string) =>
  patch<Project>(`/api/v1/projects/${project.id}/`, { name });
