import type { Executor } from '../../db/database.ts';
import { ApiError, forbidden, notFound } from '../../http/errors.ts';
import { canWriteInProject, type Principal } from '../auth/principal.ts';
import { findVisibleProjectRef, type ProjectRef } from '../projects/visibility.ts';

/** A project addressed by key in the path; unknown or invisible is 404 (spec 4.3 rule 2). */
export async function visibleProjectByKey(db: Executor, principal: Principal, key: string): Promise<ProjectRef> {
  const project = await findVisibleProjectRef(db, principal, { key });
  if (!project) throw notFound('Project');
  return project;
}

/** Labels, milestones and sprints are everyday planning: any project role but viewer may change them. */
export function assertCanPlan(principal: Principal, project: ProjectRef): void {
  if (!canWriteInProject(principal, project.role)) throw forbidden('Project viewers can read labels, milestones and sprints but not change them.');
}

export async function writableProjectByKey(db: Executor, principal: Principal, key: string): Promise<ProjectRef> {
  const project = await visibleProjectByKey(db, principal, key);
  assertCanPlan(principal, project);
  return project;
}

/** The project of an id-addressed item the caller has already read (so it is visible). */
export async function writableProjectById(db: Executor, principal: Principal, projectId: number): Promise<ProjectRef> {
  const project = await findVisibleProjectRef(db, principal, { id: projectId });
  if (!project) throw notFound('Project');
  assertCanPlan(principal, project);
  return project;
}

export const nameTaken = (what: string, name: string) =>
  new ApiError('ALREADY_EXISTS', `The project already has a ${what} named "${name}".`, { field: 'name' });
