import type { Executor } from '../db/database.ts';

/** API tokens as the console and the operator list and revoke them (issue-token.ts makes them). */

/** Unrevoked tokens, optionally of one organization or account, by id. */
export function liveTokens(db: Executor, filter: { organizationId?: number; accountId?: number }) {
  return db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('api_token_usage as tu', 'tu.token_id', 't.id')
    .select([
      't.id',
      't.name',
      'u.id as account_id',
      'u.name as account_name',
      't.scopes',
      't.project_ids',
      't.created_at',
      't.expires_at',
      'tu.last_used_at',
    ])
    .where('t.revoked_at', 'is', null)
    .$if(filter.organizationId !== undefined, (qb) => qb.where('u.organization_id', '=', filter.organizationId!))
    .$if(filter.accountId !== undefined, (qb) => qb.where('u.id', '=', filter.accountId!))
    .orderBy('t.id')
    .execute();
}

/** An unrevoked token of the organization with its account. */
export function findLiveTokenIn(db: Executor, organizationId: number, id: number) {
  return db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.id', 'u.id as account_id'])
    .where('t.id', '=', id)
    .where('u.organization_id', '=', organizationId)
    .where('t.revoked_at', 'is', null)
    .executeTakeFirst();
}

/** The keys of these projects, to name a token's restriction. */
export function projectKeysOf(db: Executor, projectIds: number[]) {
  return db.selectFrom('projects').select(['id', 'key']).where('id', 'in', projectIds).execute();
}

/** Whether this call revoked the token (false: it is unknown or was revoked already). */
export async function revokeToken(db: Executor, id: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable('api_tokens')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A token as an audit record names it: its name or prefix, and the account it acts as. */
export function findTokenForAudit(db: Executor, id: number) {
  return db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.id', 't.name', 't.token_prefix', 'u.id as account_id', 'u.name as account_name', 'u.organization_id'])
    .where('t.id', '=', id)
    .executeTakeFirst();
}

export function findTokenRevocation(db: Executor, id: number) {
  return db.selectFrom('api_tokens').select('revoked_at').where('id', '=', id).executeTakeFirst();
}
