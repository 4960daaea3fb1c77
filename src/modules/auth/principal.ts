import type { WorkspaceRole } from '../../db/schema.ts';
import type { Scope } from './scopes.ts';

/** Who is calling: the token, its account, and what the token allows. What it may do is decided in src/policy/. */
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
