import type { Executor } from '../db/database.ts';
import type { ProjectRole, WorkspaceRole } from '../db/schema.ts';
import { foundOr404 } from '../http/errors.ts';
import type { Principal } from '../identity/principal.ts';
import { type AccountAccess, authorize, can } from './authorize.ts';
import { findAccountIn } from './visibility.repository.ts';

/**
 * The account of the caller's organization a new token would act as, if the caller may issue
 * it one (docs/api/access.md): another organization's or an unknown account is 404, an
 * account the caller may not issue tokens for 403.
 */
export async function issuableAccount(db: Executor, principal: Principal, accountId: number) {
  const account = await foundOr404(findAccountIn(db, principal.organizationId, accountId), 'Account');
  authorize(principal, 'token.issue', { kind: 'account', account });
  return account;
}

/** The account that issued a token, as it is now. */
export interface Issuer {
  id: number;
  role: WorkspaceRole;
  active: boolean;
}

/**
 * An issuer as a query found it now: its id as recorded (null: none), and its role and state,
 * null when it is no longer in the organization (which leaves it no right to issue anything).
 */
export function issuerAsNow(id: number | null, role: WorkspaceRole | null, active: number | null): Issuer | null {
  return id === null ? null : { id, role: role ?? 'guest', active: active === 1 };
}

/**
 * Whether a token still acts: only while the account that issued it could still issue it
 * (active, and still allowed to issue tokens for that account). A token the operator issued
 * from the command line has no issuer.
 */
export function issuerMayStillIssue(issuer: Issuer | null, account: AccountAccess): boolean {
  if (issuer === null) return true;
  return (
    issuer.active &&
    can({ userId: issuer.id, role: issuer.role, projectRestriction: null }, 'token.issue', {
      kind: 'account',
      account,
    })
  );
}

/**
 * Whether an invitation or password-reset link still acts: only while the person who issued it
 * could still issue it (active, an owner or admin, and an owner when the role it grants, or the
 * role its target has now, is owner). The operator's invitations and the links people ask for
 * themselves have no issuer.
 */
export function linkIssuerMayStillIssue(issuer: Issuer | null, targetRole: WorkspaceRole): boolean {
  if (issuer === null) return true;
  const actor = { userId: issuer.id, role: issuer.role, projectRestriction: null };
  return issuer.active && can(actor, 'person.manage', { kind: 'person', roles: [targetRole] });
}

/** Why an account of this kind cannot hold this workspace role, or null when it can. */
export function roleRefusal(kind: 'human' | 'service', role: WorkspaceRole): string | null {
  // An owner answers for the organization: that is a person, never a script's credential.
  return kind === 'service' && role === 'owner' ? 'a service account cannot be an owner' : null;
}

/**
 * Whether a project an invitation names is still granted when it is accepted: only while its
 * inviter administers that project (`issuerProjectRole` is the inviter's role there now, null
 * when no longer a member). The operator's invitations have no issuer and keep their projects.
 */
export function invitationIssuerMayStillGrant(
  issuer: Issuer | null,
  projectId: number,
  issuerProjectRole: ProjectRole | null,
): boolean {
  if (issuer === null) return true;
  if (!issuer.active || issuerProjectRole === null) return false;
  return can({ userId: issuer.id, role: issuer.role, projectRestriction: null }, 'project.administer', {
    kind: 'project',
    project: { id: projectId, role: issuerProjectRole },
  });
}

/**
 * Whether the caller knows the whole organization's people, with their e-mail addresses:
 * everyone but guests, who know only the people they share a project with, without addresses
 * (docs/api/access.md, "People").
 */
export function seesWholeDirectory(principal: Pick<Principal, 'role'>): boolean {
  return principal.role !== 'guest';
}
