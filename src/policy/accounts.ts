import type { Executor } from '../db/database.ts';
import type { WorkspaceRole } from '../db/schema.ts';
import { foundOr404 } from '../http/errors.ts';
import type { Principal } from '../modules/auth/principal.ts';
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
