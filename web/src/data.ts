import { useQuery } from '@tanstack/react-query';
import {
  get,
  getAll,
  qs,
  type CustomField,
  type Membership,
  type Named,
  type Project,
  type Status,
  type Task,
  type Workflow,
} from './api.ts';

export const keys = {
  projects: ['projects'] as const,
  project: (key: string) => ['project', key] as const,
  tasks: (project: string) => ['tasks', project] as const,
  task: (key: string) => ['task', key] as const,
};

export function useProjects() {
  return useQuery({
    queryKey: keys.projects,
    queryFn: ({ signal }) => getAll<Project>('/api/v1/projects/?ordering=name', signal),
  });
}

export function useProject(key: string) {
  const projects = useProjects();
  const project = projects.data?.find((p) => p.key === key) ?? null;
  return { project, isPending: projects.isPending, error: projects.error };
}

/** Everything a board, list or task screen needs about its project, loaded once and shared. */
export function useProjectConfig(project: Project | null) {
  const id = project?.id;
  const key = project?.key ?? '';
  const enabled = Boolean(project);
  const statuses = useQuery({
    queryKey: ['statuses', id],
    enabled,
    queryFn: async ({ signal }) =>
      (await getAll<Status>(`/api/v1/statuses/?project=${id}`, signal)).sort((a, b) => a.position - b.position),
  });
  const workflow = useQuery({
    queryKey: ['workflow', project?.workflow ?? null],
    enabled: enabled && project?.workflow != null,
    queryFn: ({ signal }) => get<Workflow>(`/api/v1/workflows/${project!.workflow}/`, signal),
  });
  const members = useQuery({
    queryKey: ['members', id],
    enabled,
    queryFn: ({ signal }) => getAll<Membership>(`/api/v1/memberships/?project=${id}`, signal),
  });
  const types = useQuery({
    queryKey: ['types', key],
    enabled,
    queryFn: ({ signal }) => getAll<Named>(`/api/v1/projects/${key}/task-types/`, signal),
  });
  const priorities = useQuery({
    queryKey: ['priorities', key],
    enabled,
    queryFn: ({ signal }) => getAll<Named>(`/api/v1/projects/${key}/priorities/`, signal),
  });
  const labels = useQuery({
    queryKey: ['labels', key],
    enabled,
    queryFn: ({ signal }) => getAll<Named>(`/api/v1/projects/${key}/labels/`, signal),
  });
  const sprints = useQuery({
    queryKey: ['sprints', key],
    enabled,
    queryFn: ({ signal }) => getAll<Named>(`/api/v1/projects/${key}/sprints/`, signal),
  });
  const milestones = useQuery({
    queryKey: ['milestones', key],
    enabled,
    queryFn: ({ signal }) => getAll<Named>(`/api/v1/projects/${key}/milestones/`, signal),
  });
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

export interface TaskFilters {
  assignee?: string;
  label?: string;
  task_type?: string;
  priority?: string;
  sprint?: string;
  milestone?: string;
  q?: string;
}

export const FILTER_NAMES = ['assignee', 'label', 'task_type', 'priority', 'sprint', 'milestone', 'q'] as const;

export function filtersFrom(search: string): TaskFilters {
  const params = new URLSearchParams(search);
  const filters: TaskFilters = {};
  for (const name of FILTER_NAMES) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  return filters;
}

/** Every task of a project matching the server-side filters; `q` narrows by text on the client. */
export function useProjectTasks(projectKey: string, filters: TaskFilters) {
  const { q: _q, ...server } = filters;
  return useQuery({
    queryKey: [...keys.tasks(projectKey), server],
    enabled: Boolean(projectKey),
    queryFn: ({ signal }) => getAll<Task>(`/api/v1/projects/${projectKey}/tasks/${qs({ ...server })}`, signal),
  });
}

export function matchesText(task: Task, q: string | undefined): boolean {
  if (!q) return true;
  const needle = q.toLowerCase();
  return task.title.toLowerCase().includes(needle) || task.key.toLowerCase().includes(needle);
}

export interface Person {
  id: number;
  kind: 'human' | 'service';
  email: string | null;
  name: string;
  role: string;
  active: boolean;
}

/** Everyone in the organization (console API), shared by every screen that names people. */
export function usePeople() {
  return useQuery({
    queryKey: ['people'],
    queryFn: ({ signal }) => get<Person[]>('/api/console/people/', signal),
    retry: false,
  });
}

/** The custom fields that apply to a project, options in the order they are offered. */
export function useCustomFields(projectId: number | undefined) {
  return useQuery({
    queryKey: ['custom-fields', projectId],
    enabled: projectId !== undefined,
    queryFn: ({ signal }) => getAll<CustomField>(`/api/v1/custom-fields/?project=${projectId}&ordering=name`, signal),
  });
}
