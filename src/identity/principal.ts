import type { WorkspaceRole } from '../db/schema.ts';
import type { Grant } from '../policy/authorize.ts';
import type { VisibleProjects } from '../policy/visibility.repository.ts';
import type { Scope } from './scopes.ts';

/**
 * Who is calling: the token, its account, and what the token allows; or a signed-in person's
 * session. What it may do is decided in src/policy/.
 */
export interface Principal {
  /** The API token; 0 for a session (see sessionId). */
  tokenId: number;
  /** Set when a session cookie authenticated the request: the caller is a signed-in person. */
  sessionId?: number;
  /** Where the caller's changes come from in events: 'app' for a session, 'api' (the default) for a token, 'agent' through MCP. */
  source?: 'app' | 'api' | 'agent';
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
  /**
   * The projects this caller sees, shared by the requests of a cached token until the auth
   * epoch moves (src/identity/auth-cache.ts); absent when not cached.
   */
  visibleProjects?: { load?: Promise<VisibleProjects> };
  /** The policy decisions that let this request through, for idempotent replays (src/policy/authorize.ts). */
  grants?: Grant[];
  /**
   * The request this principal authenticated: its id (the correlation_id of its events and
   * audit records, the request log's request_id) and the client's address (as TRUST_PROXY
   * decides). Absent outside a request.
   */
  request?: { id: string; address: string };
}

/** The account and organization a token's or a session's row carries, as a principal names them. */
export interface AccountRow {
  user_id: number;
  user_name: string;
  user_email: string | null;
  user_kind: 'human' | 'service';
  organization_id: number;
  organization_slug: string;
  organization_name: string;
  role: WorkspaceRole;
}

export function accountOf(
  row: AccountRow,
): Pick<
  Principal,
  'userId' | 'userName' | 'userEmail' | 'userKind' | 'organizationId' | 'organizationSlug' | 'organizationName' | 'role'
> {
  return {
    userId: row.user_id,
    userName: row.user_name,
    userEmail: row.user_email,
    userKind: row.user_kind,
    organizationId: row.organization_id,
    organizationSlug: row.organization_slug,
    organizationName: row.organization_name,
    role: row.role,
  };
}
