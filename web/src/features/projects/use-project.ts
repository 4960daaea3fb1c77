import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Project } from '../../lib/api-types.ts';
import {
  customFieldsQuery,
  labelsQuery,
  membersQuery,
  milestonesQuery,
  prioritiesQuery,
  projectsQuery,
  sprintsQuery,
  statusesQuery,
  typesQuery,
  workflowQuery,
} from './api.ts';

export function useProjects() {
  return useQuery(projectsQuery);
}

/** Keys of the projects the reader sees: task keys of these link to their task in markdown. */
export function useProjectKeys(): ReadonlySet<string> {
  const projects = useProjects();
  return useMemo(() => new Set(projects.data?.map((p) => p.key)), [projects.data]);
}

export function useProject(key: string) {
  const projects = useProjects();
  const project = projects.data?.find((p) => p.key === key) ?? null;
  return { project, isPending: projects.isPending, error: projects.error };
}

/** Stands in for a project not loaded yet: its queries are built but stay disabled. */
const NO_PROJECT: Project = {
  id: 0,
  key: '',
  name: '',
  description: '',
  workflow: null,
  default_status: null,
  default_task_type: null,
  default_priority: null,
  estimate_unit: 'points',
  role: 'viewer',
  created_by: null,
  created_at: '',
  updated_at: '',
};

/** `options` enabled only once `project` is known (and when the options themselves allow it). */
const once = <T extends { enabled?: unknown }>(project: Project | null, options: T): T & { enabled: boolean } => ({
  ...options,
  enabled: project !== null && options.enabled !== false,
});

/** Everything a board, list or task screen needs about its project, loaded once and shared. */
export function useProjectConfig(project: Project | null) {
  const p = project ?? NO_PROJECT;
  const statuses = useQuery(once(project, statusesQuery(p)));
  const workflow = useQuery(once(project, workflowQuery(p)));
  const members = useQuery(once(project, membersQuery(p)));
  const types = useQuery(once(project, typesQuery(p.key)));
  const priorities = useQuery(once(project, prioritiesQuery(p.key)));
  const labels = useQuery(once(project, labelsQuery(p.key)));
  const sprints = useQuery(once(project, sprintsQuery(p.key)));
  const milestones = useQuery(once(project, milestonesQuery(p.key)));
  const memberName = (id: number | null) =>
    id == null ? '' : (members.data?.find((m) => m.user === id)?.user_name ?? `#${id}`);
  /** Status names a task in `from` may move to; null while the workflow loads or when the project has none (every move allowed). */
  const reachable = (from: string): Set<string> | null => {
    if (project?.workflow == null || !workflow.data) return null;
    return new Set(workflow.data.transitions.filter((t) => t.from_status_name === from).map((t) => t.to_status_name));
  };
  return {
    statuses: statuses.data ?? [],
    members: members.data ?? [],
    /** The members as choices: user id and name. */
    people: (members.data ?? []).map((m) => ({ id: m.user, name: m.user_name })),
    types: types.data ?? [],
    priorities: priorities.data ?? [],
    labels: labels.data ?? [],
    sprints: sprints.data ?? [],
    milestones: milestones.data ?? [],
    ready: statuses.isSuccess && (project?.workflow == null || workflow.isSuccess),
    error: statuses.error ?? workflow.error ?? members.error,
    memberName,
    reachable,
  };
}

export type ProjectConfig = ReturnType<typeof useProjectConfig>;

/** The custom fields that apply to a project. */
export function useCustomFields(project: Project | null) {
  return useQuery(once(project, customFieldsQuery(project ?? NO_PROJECT)));
}
