import type { Executor } from '../../db/database.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { canAdministerProject, type Principal } from '../auth/principal.ts';
import { findVisibleProjectRef, type ProjectRef } from '../projects/visibility.ts';

/**
 * The project whose workflow configuration the caller wants to change. Invisible is 404;
 * visible without admin rights is 403, because statuses and transitions constrain everyone.
 */
export async function administeredProject(db: Executor, principal: Principal, projectId: number): Promise<ProjectRef> {
  const project = await findVisibleProjectRef(db, principal, { id: projectId });
  if (!project) throw notFound('Project');
  if (!canAdministerProject(principal, project.role)) {
    throw forbidden('Only project admins can change statuses, transitions and workflows.');
  }
  return project;
}
