import type { ProjectRole, WorkspaceRole } from '../../db/schema.ts';
import type { Scope } from './scopes.ts';

/** Who is calling: the token, its service account, and what the token allows. */
export interface Principal {
  tokenId: number;
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
