import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { ApiError } from '../http/errors.ts';
import { findTokenWithAccount } from './auth.repository.ts';
import { accountOf, type Principal } from './principal.ts';
import { effectiveScopes, type Scope } from './scopes.ts';
import { hashToken } from './tokens.ts';
import { issuerAsNow, issuerMayStillIssue } from '../policy/accounts.ts';

const unauthenticated = (message: string) => new ApiError('UNAUTHENTICATED', message);

/** Resolves an `Authorization` header to a principal, or throws 401. */
export async function authenticate(db: Db, clock: Clock, header: string | undefined): Promise<Principal> {
  return principalOfTokenHash(db, clock, tokenHashOf(header));
}

/** The hash the token of an `Authorization` header is stored under; 401 when the header is missing or malformed. */
export function tokenHashOf(header: string | undefined): string {
  if (!header) throw unauthenticated('Missing Authorization header. Send "Authorization: Bearer <token>".');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw unauthenticated('Authorization header must be "Bearer <token>".');
  return hashToken(match[1]);
}

/** 401 once the token's expiry has passed. */
export function assertUsable(clock: Clock, expiresAt: string | null): void {
  if (expiresAt && expiresAt <= clock.nowIso()) throw unauthenticated('The token has expired.');
}

export async function principalOfTokenHash(db: Db, clock: Clock, tokenHash: string): Promise<Principal> {
  // The lookup is by hash, so no comparison of secret material happens in application code.
  const row = await findTokenWithAccount(db, tokenHash);
  if (!row) throw unauthenticated('The token is not valid.');
  if (row.revoked_at) throw unauthenticated('The token has been revoked.');
  if (!row.user_active) throw unauthenticated("The token's account is deactivated.");
  const issuer = issuerAsNow(row.created_by, row.issuer_role, row.issuer_active);
  if (!issuerMayStillIssue(issuer, { id: row.user_id, kind: row.user_kind }))
    throw unauthenticated('The person who created the token can no longer create it: ask for a new one.');
  assertUsable(clock, row.expires_at);

  return {
    tokenId: row.token_id,
    ...accountOf(row),
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
