import type { Category, Membership, Status } from '../../lib/api-types.ts';
import { del, patch, post, put } from '../../lib/http.ts';

export const addMember = (project: number, user: number, role: Membership['role'] = 'member') =>
  post<Membership>('/api/v1/memberships/', { project, user, role });
export const changeMemberRole = (id: number, role: string) => patch<Membership>(`/api/v1/memberships/${id}/`, { role });
export const removeMember = (id: number) => del(`/api/v1/memberships/${id}/`);

export const reorderStatuses = (project: number, ids: number[]) =>
  post('/api/v1/statuses/reorder/', { project, statuses: ids });
export const addStatus = (project: number, name: string, category: Category) =>
  post<Status>('/api/v1/statuses/', { project, name, category });
export const deleteStatus = (id: number) => del(`/api/v1/statuses/${id}/`);

export const addTransition = (workflow: number, from: Status, to: Status) =>
  post('/api/v1/transitions/', {
    workflow,
    from_status: from.id,
    to_status: to.id,
    name: `${from.name} to ${to.name}`,
  });
export const deleteTransition = (id: number) => del(`/api/v1/transitions/${id}/`);

/** Labels, milestones and sprints share one shape of calls. */
export type PlanningKind = 'labels' | 'milestones' | 'sprints';
export const createPlanningItem = (projectKey: string, kind: PlanningKind, body: Record<string, unknown>) =>
  post(`/api/v1/projects/${projectKey}/${kind}/`, body);
export const updatePlanningItem = (kind: PlanningKind, id: number, body: Record<string, unknown>) =>
  put(`/api/v1/${kind}/${id}/`, body);
export const deletePlanningItem = (kind: PlanningKind, id: number) => del(`/api/v1/${kind}/${id}/`);
