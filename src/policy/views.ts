import type { Executor } from '../db/database.ts';
import { forbidden } from '../http/errors.ts';
import type { Principal } from '../identity/principal.ts';
import { isWorkspaceAdmin } from './authorize.ts';
import { visibleProjectIds, type ProjectRef } from './visibility.repository.ts';

/**
 * Saved views the caller can see: its own, and shared ones of a project it sees, or of no
 * project (shared with the organization). A view of a project the caller no longer sees is
 * hidden from everyone who does not see it, its creator included. Anything else is a 404.
 */
export function visibleViews(db: Executor, principal: Principal) {
  return db
    .selectFrom('saved_views as v')
    .where('v.organization_id', '=', principal.organizationId)
    .where((eb) =>
      eb.and([
        eb.or([eb('v.project_id', 'is', null), eb('v.project_id', 'in', visibleProjectIds(db, principal))]),
        eb.or([eb('v.created_by', '=', principal.userId), eb('v.shared', '=', 1)]),
      ]),
    );
}

/**
 * Who may save a view as it is about to be: anyone its own private views; a shared view of a
 * project needs a role that changes the project (not a viewer), and one shared with the whole
 * organization a workspace role above guest and a token not restricted to projects.
 */
export function authorizeViewShape(principal: Principal, view: { shared: boolean; project: ProjectRef | null }): void {
  if (!view.shared) return;
  if (view.project) {
    if (view.project.role === 'viewer' && !isWorkspaceAdmin(principal))
      throw forbidden('Project viewers cannot share views with the project.');
    return;
  }
  if (principal.role === 'guest') throw forbidden('Guests cannot share views with the organization.');
  if (principal.projectRestriction !== null)
    throw forbidden('A token restricted to specific projects cannot share views with the organization.');
}

/**
 * Who may change or delete a visible view: its creator; a shared view also whoever administers
 * its project (the workspace's owners and admins for a view shared with the organization).
 */
export function authorizeViewChange(
  principal: Principal,
  view: { created_by: number; shared: boolean; project: ProjectRef | null },
): void {
  if (view.created_by === principal.userId) return;
  if (view.shared && (isWorkspaceAdmin(principal) || view.project?.role === 'admin')) return;
  throw forbidden('Only its creator (or, for a shared view, an admin of its project) can change this view.');
}
