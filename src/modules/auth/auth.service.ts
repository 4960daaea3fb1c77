import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { ApiError } from '../../http/errors.ts';
import { findTokenWithAccount } from './auth.repository.ts';
import type { Principal } from './principal.ts';
import { effectiveScopes, type Scope } from './scopes.ts';
import { hashToken } from './tokens.ts';

const unauthenticated = (message: string) => new ApiError('UNAUTHENTICATED', message);

/** Resolves an `Authorization` header to a principal, or throws 401. */
export async function authenticate(db: Db, clock: Clock, header: string | undefined): Promise<Principal> {
  if (!header) throw unauthenticated('Missing Authorization header. Send "Authorization: Bearer <token>".');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw unauthenticated('Authorization header must be "Bearer <token>".');

  // The lookup is by hash, so no comparison of secret material happens in application code.
  const row = await findTokenWithAccount(db, hashToken(match[1]));
  if (!row) throw unauthenticated('The token is not valid.');
  if (row.revoked_at) throw unauthenticated('The token has been revoked.');
  if (row.expires_at && row.expires_at <= clock.nowIso()) throw unauthenticated('The token has expired.');

  return {
    tokenId: row.token_id,
    userId: row.user_id,
    userName: row.user_name,
    userEmail: row.user_email,
    userKind: row.user_kind,
    organizationId: row.organization_id,
    organizationSlug: row.organization_slug,
    organizationName: row.organization_name,
    role: row.role,
    scopes: effectiveScopes(JSON.parse(row.scopes) as string[]),
    projectRestriction: row.project_ids === null ? null : (JSON.parse(row.project_ids) as number[]),
    expiresAt: row.expires_at,
  };
}

export function requireScope(principal: Principal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) {
    throw new ApiError('INSUFFICIENT_SCOPE', `This endpoint needs the ${scope} scope.`, {
      required: scope,
      granted: principal.scopes,
    });
  }
}
