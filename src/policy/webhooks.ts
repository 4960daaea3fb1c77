import type { Executor } from '../db/database.ts';
import { forbidden, foundOr404 } from '../http/errors.ts';
import type { Principal } from '../identity/principal.ts';
import { type EndpointRow, findVisibleEndpoint } from '../modules/webhooks/webhooks.repository.ts';
import { recordGrant } from './authorize.ts';
import { projectFor } from './projects.ts';
import { isMemberOf } from './visibility.repository.ts';

/**
 * Who may manage a webhook endpoint (docs/api/access.md). Reading follows visibility
 * (visibility.repository.ts: an endpoint spanning projects is hidden from anyone who does not see every
 * project it delivers). Changing, testing and replaying a project-bound endpoint needs admin
 * rights on its project; an endpoint spanning projects is managed by whoever sees it.
 */
export async function endpointFor(
  db: Executor,
  principal: Principal,
  id: number,
  action: 'read' | 'manage',
): Promise<EndpointRow> {
  const endpoint = await foundOr404(findVisibleEndpoint(db, principal, id), 'Webhook endpoint');
  if (action === 'manage') {
    if (endpoint.project_id !== null)
      await projectFor(db, principal, { id: endpoint.project_id }, 'project.administer', 'webhook endpoints');
    recordGrant(principal, { action: 'endpoint.manage', endpoint: id });
  }
  return endpoint;
}

/** A project an endpoint may be bound to: visible (else 404) and administered by the caller (else 403). */
export async function bindableProject(db: Executor, principal: Principal, projectId: number): Promise<number> {
  return (await projectFor(db, principal, { id: projectId }, 'project.administer', 'webhook endpoints')).id;
}

/** An endpoint spanning projects would let a project-restricted token reach beyond its projects. */
export function authorizeSpanning(principal: Principal): void {
  if (principal.projectRestriction !== null) {
    throw forbidden('A token restricted to projects can only manage endpoints bound to one of them; set "project".');
  }
  recordGrant(principal, { action: 'endpoint.span' });
}

/**
 * A replay sends an event again to the endpoint's current URL, chosen by its governing
 * account: only while that account still sees the event's project.
 */
export async function authorizeReplayTarget(
  db: Executor,
  endpoint: EndpointRow,
  eventProjectId: number | null,
): Promise<void> {
  if (eventProjectId === null) return;
  if (!(await isMemberOf(db, endpoint.governed_by, eventProjectId))) {
    throw forbidden(
      "The account that set this endpoint's URL or events can no longer see the event's project; set them again before replaying.",
    );
  }
}
