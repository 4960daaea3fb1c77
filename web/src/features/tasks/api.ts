import { queryOptions } from '@tanstack/react-query';
import type {
  Attachment,
  Comment,
  Task,
  TaskActivity,
  TaskFollower,
  TaskLink,
  TimeEntry,
} from '../../lib/api-types.ts';
import { call, del, get, getAll, post, upload } from '../../lib/http.ts';

/**
 * One key per resource: a task lives at `taskKeys.task(key)` (with its ETag), and what hangs
 * off it (comments, history, links, …) under that key, so one invalidation of the task's
 * prefix refreshes its whole page.
 */
export const taskKeys = {
  task: (key: string) => ['task', key] as const,
  comments: (key: string) => ['task', key, 'comments'] as const,
  activities: (key: string) => ['task', key, 'activities'] as const,
  links: (key: string) => ['task', key, 'links'] as const,
  attachments: (key: string) => ['task', key, 'attachments'] as const,
  time: (key: string) => ['task', key, 'time'] as const,
  subtasks: (key: string) => ['task', key, 'subtasks'] as const,
  followers: (key: string) => ['task', key, 'followers'] as const,
  /** Every list of a project's tasks (board, list, …) lives under this prefix. */
  lists: (projectKey: string) => ['tasks', projectKey] as const,
  /** Lists across projects (my work). */
  everywhere: ['tasks', '*'] as const,
};

/** A task as read, with the ETag that a later write sends as If-Match. */
export interface LoadedTask {
  task: Task;
  etag: string | null;
}

export async function fetchTask(key: string, signal?: AbortSignal): Promise<LoadedTask> {
  const result = await call<Task>(`/api/v1/tasks/${key}/`, { signal });
  return { task: result.data, etag: result.etag };
}

export const taskQuery = (key: string) =>
  queryOptions({ queryKey: taskKeys.task(key), queryFn: ({ signal }) => fetchTask(key, signal) });

/** Fields a PUT may change (the API's TaskUpdateBody). */
export type TaskChanges = Partial<
  Pick<
    Task,
    | 'title'
    | 'description'
    | 'task_type'
    | 'priority'
    | 'status'
    | 'assignee'
    | 'due_date'
    | 'start_date'
    | 'estimate'
    | 'labels'
    | 'milestone'
    | 'sprint'
    | 'parent'
    | 'custom_fields'
  >
>;

/** Saves `changes` only if the task is still at `etag` (412 PRECONDITION_FAILED otherwise). */
export async function updateTask(key: string, changes: TaskChanges, etag?: string | null): Promise<LoadedTask> {
  const result = await call<Task>(`/api/v1/tasks/${key}/`, { method: 'PUT', body: changes, ifMatch: etag });
  return { task: result.data, etag: result.etag };
}

export const createTask = (projectKey: string, body: { title: string; description?: string }) =>
  call<Task>(`/api/v1/projects/${projectKey}/tasks/`, { method: 'POST', body });

export const bulkUpdateTasks = (projectKey: string, tasks: Array<{ key: string } & TaskChanges>) =>
  call<Task[]>(`/api/v1/projects/${projectKey}/tasks/bulk-update/`, { method: 'POST', body: { tasks } });

export const commentsQuery = (key: string) =>
  queryOptions({
    queryKey: taskKeys.comments(key),
    queryFn: ({ signal }) => getAll<Comment>(`/api/v1/tasks/${key}/comments/?ordering=created_at`, signal),
  });
export const addComment = (key: string, body: string) => post<Comment>(`/api/v1/tasks/${key}/comments/`, { body });

export const activitiesQuery = (key: string) =>
  queryOptions({
    queryKey: taskKeys.activities(key),
    queryFn: ({ signal }) => get<TaskActivity[]>(`/api/v1/tasks/${key}/activities/?limit=50`, signal),
  });

export const linksQuery = (key: string) =>
  queryOptions({
    queryKey: taskKeys.links(key),
    queryFn: ({ signal }) => getAll<TaskLink>(`/api/v1/tasks/${key}/links/`, signal),
  });
export const addLink = (key: string, other: string, type: TaskLink['type']) =>
  post(`/api/v1/tasks/${key}/link/`, { task: other, type });
export const removeLink = (key: string, id: number) => del(`/api/v1/tasks/${key}/links/${id}/`);

export const attachmentsQuery = (key: string) =>
  queryOptions({
    queryKey: taskKeys.attachments(key),
    queryFn: ({ signal }) => getAll<Attachment>(`/api/v1/tasks/${key}/attachments/`, signal),
  });
export const uploadAttachment = (key: string, file: File, onProgress: (fraction: number) => void) =>
  upload<Attachment>(`/api/v1/tasks/${key}/attachments/`, file, onProgress);
export const deleteAttachment = (id: number) => del(`/api/v1/attachments/${id}/`);
export const attachmentUrl = (id: number) => `/api/v1/attachments/${id}/content/`;

export const timeEntriesQuery = (key: string) =>
  queryOptions({
    queryKey: taskKeys.time(key),
    queryFn: ({ signal }) => getAll<TimeEntry>(`/api/v1/tasks/${key}/time-entries/`, signal),
  });
export const logTime = (key: string, body: { minutes: number; date: string; note: string }) =>
  post<TimeEntry>(`/api/v1/tasks/${key}/time-entries/`, body);

export const subtasksQuery = (key: string) =>
  queryOptions({
    queryKey: taskKeys.subtasks(key),
    queryFn: ({ signal }) => getAll<Task>(`/api/v1/tasks/${key}/subtasks/`, signal),
  });

export const followersQuery = (key: string) =>
  queryOptions({
    queryKey: taskKeys.followers(key),
    queryFn: ({ signal }) => getAll<TaskFollower>(`/api/v1/tasks/${key}/followers/`, signal),
  });
export const setFollowing = (key: string, follow: boolean) =>
  call(`/api/v1/tasks/${key}/follow/`, { method: follow ? 'POST' : 'DELETE', body: follow ? {} : undefined });
