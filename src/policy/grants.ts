import type { Executor } from '../db/database.ts';
import type { Principal } from '../identity/principal.ts';
import { type Action, authorize, type Grant, WORKSPACE } from './authorize.ts';
import { issuableAccount } from './accounts.ts';
import { projectFor } from './projects.ts';
import { authorizeSpanning, endpointFor } from './webhooks.ts';

type ProjectAction = Extract<Action, 'project.read' | 'project.contribute' | 'project.administer'>;

/**
 * Decides again, for the caller as it is now, what let a stored request through: an
 * idempotent replay answers only if the caller could still make the request, otherwise it
 * gets the error it would get now (404 for a project it no longer sees, 403 for a lost role).
 */
export async function recheckGrants(db: Executor, principal: Principal, grants: Grant[]): Promise<void> {
  for (const grant of grants) {
    if ('endpoint' in grant) await endpointFor(db, principal, grant.endpoint, 'manage');
    else if ('account' in grant) await issuableAccount(db, principal, grant.account);
    else if ('roles' in grant) authorize(principal, 'person.manage', { kind: 'person', roles: grant.roles });
    else if (grant.action === 'endpoint.span') authorizeSpanning(principal);
    else if (grant.project === undefined) authorize(principal, grant.action, WORKSPACE);
    else await projectFor(db, principal, { id: grant.project }, grant.action as ProjectAction);
  }
}
