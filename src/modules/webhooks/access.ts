import type { AppContext } from '../../context.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { canWriteInProject, type Principal } from '../auth/principal.ts';
import { findVisibleProjectRef } from '../projects/visibility.ts';
import { type EndpointRow, findVisibleEndpoint } from './webhooks.repository.ts';

/**
 * Who may change an endpoint. Reading follows visibility (webhooks.repository.ts); changing,
 * testing and replaying also need write access to the endpoint's project (a project viewer
 * reads only). Endpoints without a project are visible only to their creator and workspace
 * owners/admins, so visibility already decides for them.
 */

/** A project an endpoint may be bound to: visible (else 404) and writable by the caller (else 403). */
export async function bindableProject(ctx: AppContext, principal: Principal, projectId: number): Promise<number> {
  const project = await findVisibleProjectRef(ctx.db, principal, { id: projectId });
  if (!project) throw notFound('Project');
  if (!canWriteInProject(principal, project.role)) throw forbidden('Project viewers cannot manage its webhook endpoints.');
  return project.id;
}

/** An endpoint spanning every project would let a project-restricted token reach beyond its projects. */
export function assertMayBeOrgWide(principal: Principal): void {
  if (principal.projectRestriction !== null) {
    throw forbidden('A token restricted to projects can only manage endpoints bound to one of them; set "project".');
  }
}

export async function manageableEndpoint(ctx: AppContext, principal: Principal, id: number): Promise<EndpointRow> {
  const endpoint = await findVisibleEndpoint(ctx.db, principal, id);
  if (!endpoint) throw notFound('Webhook endpoint');
  if (endpoint.project_id !== null) await bindableProject(ctx, principal, endpoint.project_id);
  return endpoint;
}
