import type { ProjectRole, WorkspaceRole } from '../../db/schema.ts';
import type { Scope } from './scopes.ts';

/** Who is calling: the token, its service account, and what the token allows; or a signed-in person's session. */
export interface Principal {
  /** The API token; 0 for a session (see sessionId). */
  tokenId: number;
  /** Set when a session cookie authenticated the request: the caller is a signed-in person. */
  sessionId?: number;
  /** Where the caller's changes come from in events: 'app' for a session, 'api' (the default) for a token. */
  source?: 'app' | 'api';
  userId: number;
  userName: string;
  userEmail: string | null;
  userKind: 'human' | 'service';
  organizationId: number;
  organizationSlug: string;
  organizationName: string;
  role: WorkspaceRole;
  scopes: Scope[];
  /** Project ids the token is restricted to, or null when it is not restricted. */
  projectRestriction: number[] | null;
  expiresAt: string | null;
}

export function canCreateProjects(principal: Principal): boolean {
  return principal.role !== 'guest' && principal.projectRestriction === null;
}

/** Workspace owners and admins manage any project they can see; otherwise the project role decides. */
export function canAdministerProject(principal: Principal, projectRole: ProjectRole): boolean {
  return principal.role === 'owner' || principal.role === 'admin' || projectRole === 'admin';
}

export function canWriteInProject(principal: Principal, projectRole: ProjectRole): boolean {
  return projectRole !== 'viewer' || principal.role === 'owner' || principal.role === 'admin';
}
