import type { ProjectRole, WorkspaceRole } from '../db/schema.ts';
import { forbidden } from '../http/errors.ts';
import type { Principal } from '../identity/principal.ts';

/**
 * Every decision about what a caller may do, given what it can see (visibility.repository.ts decides
 * that: a resource the caller cannot see never reaches here, it is a 404). The rules are the
 * table of docs/api/access.md.
 *
 * A caller is a principal: an account (its workspace role, its project memberships) seen
 * through a credential that may narrow it (scopes, a project restriction). Nothing here
 * depends on the credential being a token.
 */
export type Action =
  /** Create a project (the creator becomes its admin). */
  | 'project.create'
  /** Change workspace-wide configuration: custom field definitions, standup settings. */
  | 'workspace.configure'
  /** Manage the organization's people, service accounts, invitations, tokens and notifications (the console). */
  | 'people.manage'
  /** Workspace decisions kept to owners: seeing every audit record. */
  | 'people.manage-owners'
  /** Change a person's role or state, reset their password, or invite them; an owner's only for owners. */
  | 'person.manage'
  /** Create an API token that acts as an account: one's own, or a service account's for those who manage people. */
  | 'token.issue'
  /** Read a visible project's content. */
  | 'project.read'
  /** Change a project's everyday content: tasks, comments, links, attachments, time, planning. */
  | 'project.contribute'
  /** Change what constrains everyone in a project: settings, workflow, memberships, webhook endpoints; delete it. */
  | 'project.administer'
  /** Change something a person added (a comment, a time entry): its author only. */
  | 'item.edit'
  /** Delete something a person added: its author, or whoever administers the project. */
  | 'item.delete';

/** A visible project, with the caller's role in it. */
export interface ProjectAccess {
  id: number;
  role: ProjectRole;
}

/** An account of the caller's organization, as the policy needs to know it. */
export interface AccountAccess {
  id: number;
  kind: 'human' | 'service';
}

export type Resource =
  | { kind: 'workspace' }
  | { kind: 'account'; account: AccountAccess }
  /** A person as `person.manage` sees them: the roles they have and would have after the change. */
  | { kind: 'person'; roles: WorkspaceRole[] }
  | { kind: 'project'; project: ProjectAccess }
  | { kind: 'item'; project: ProjectAccess; authorId: number | null };

export const WORKSPACE: Resource = { kind: 'workspace' };

/**
 * What the decisions below depend on: an account's id and workspace role, and the credential's
 * project restriction. A principal is one; so is an account that issued a token or a link,
 * when whether it could still issue it is decided again.
 */
export type Actor = Pick<Principal, 'userId' | 'role' | 'projectRestriction'>;

export function isWorkspaceAdmin(principal: Actor): boolean {
  return principal.role === 'owner' || principal.role === 'admin';
}

function administers(principal: Actor, project: ProjectAccess): boolean {
  return isWorkspaceAdmin(principal) || project.role === 'admin';
}

function contributes(principal: Actor, project: ProjectAccess): boolean {
  return project.role !== 'viewer' || isWorkspaceAdmin(principal);
}

/** Why not, or null when the action is allowed. */
export function refusal(principal: Actor, action: Action, resource: Resource): string | null {
  const restricted = principal.projectRestriction !== null;
  switch (action) {
    case 'project.create':
      if (restricted) return 'A token restricted to specific projects cannot create projects.';
      return principal.role === 'guest' ? 'Your workspace role cannot create projects.' : null;
    case 'workspace.configure':
      if (!isWorkspaceAdmin(principal)) return 'Only workspace owners and admins can change workspace configuration.';
      return restricted ? 'A token restricted to specific projects cannot change workspace configuration.' : null;
    case 'people.manage':
      return isWorkspaceAdmin(principal) ? null : 'Only workspace owners and admins can do this.';
    case 'people.manage-owners':
      return principal.role === 'owner' ? null : 'Only an owner can do this.';
    case 'person.manage':
      if (resource.kind !== 'person') throw new TypeError(`${action} needs a person`);
      if (!isWorkspaceAdmin(principal)) return 'Only workspace owners and admins can do this.';
      // An admin who could touch an owner could demote them and take the organization.
      return resource.roles.includes('owner') && principal.role !== 'owner'
        ? 'Only an owner can manage an owner or make someone owner.'
        : null;
    case 'token.issue': {
      if (resource.kind !== 'account') throw new TypeError(`${action} needs an account`);
      if (resource.account.id === principal.userId) return null;
      // A token acts as exactly one account, so a token for another person would let its maker act as them.
      if (resource.account.kind === 'human')
        return 'A token acts as the person who creates it: create tokens for yourself, or for a service account.';
      return isWorkspaceAdmin(principal)
        ? null
        : 'Only workspace owners and admins can create tokens for service accounts.';
    }
  }
  if (resource.kind === 'workspace' || resource.kind === 'account' || resource.kind === 'person')
    throw new TypeError(`${action} needs a project`);
  const { project } = resource;
  switch (action) {
    case 'project.read':
      return null;
    case 'project.contribute':
      return contributes(principal, project) ? null : 'Project viewers can read but not change it.';
    case 'project.administer':
      return administers(principal, project)
        ? null
        : 'Only project admins (or workspace owners and admins) can change it.';
    case 'item.edit':
    case 'item.delete': {
      if (!contributes(principal, project)) return 'Project viewers can read but not change it.';
      if (resource.kind !== 'item') throw new TypeError(`${action} needs an item`);
      if (resource.authorId === principal.userId) return null;
      if (action === 'item.delete' && administers(principal, project)) return null;
      return action === 'item.edit'
        ? 'Only its author can change it.'
        : 'Only its author or a project admin can delete it.';
    }
  }
}

export function can(principal: Actor, action: Action, resource: Resource): boolean {
  return refusal(principal, action, resource) === null;
}

/**
 * Throws 403 FORBIDDEN unless the caller may act. `what` names the thing in the message
 * ("tasks", "comments"). Allowed decisions are remembered for the request (grants.ts).
 */
export function authorize(principal: Principal, action: Action, resource: Resource, what?: string): void {
  const reason = refusal(principal, action, resource);
  if (reason !== null) throw forbidden(what ? reason.replace(/ it\.$/, ` ${what}.`) : reason);
  recordGrant(principal, grantOf(action, resource));
}

function grantOf(action: Action, resource: Resource): Grant {
  if (resource.kind === 'account') return { action: 'token.issue', account: resource.account.id };
  if (resource.kind === 'person') return { action: 'person.manage', roles: resource.roles };
  // Only an account resource allows 'token.issue', only a person 'person.manage' (refusal throws otherwise).
  const decided = action as Exclude<Action, 'token.issue' | 'person.manage'>;
  if (resource.kind === 'workspace') return { action: decided };
  return {
    action: decided === 'item.edit' || decided === 'item.delete' ? 'project.contribute' : decided,
    project: resource.project.id,
  };
}

/**
 * A decision that let a request through, kept so an idempotent replay can be re-decided for
 * the caller as it is now (docs/api/idempotency.md). Item decisions are kept as the project
 * decision they imply: the item may be gone by the time of the replay.
 */
export type Grant =
  | { action: Exclude<Action, 'token.issue' | 'person.manage'>; project?: number }
  | { action: 'token.issue'; account: number }
  | { action: 'person.manage'; roles: WorkspaceRole[] }
  | { action: 'endpoint.manage'; endpoint: number }
  | { action: 'endpoint.span' };

/** Starts remembering the grants of one request; the principal must be that request's own object. */
export function recordGrantsFor(principal: Principal): void {
  principal.grants = [];
}

export function recordGrant(principal: Principal, grant: Grant): void {
  principal.grants?.push(grant);
}

/** The grants remembered for the request, without repeats. */
export function grantsFor(principal: Principal): Grant[] {
  const seen = new Map<string, Grant>();
  for (const grant of principal.grants ?? []) seen.set(JSON.stringify(grant), grant);
  return [...seen.values()];
}
