import type { Executor } from '../db/database.ts';

/** The columns of an organization that a principal or a notice names it by. */
export const ORGANIZATION_COLUMNS = [
  'o.id as organization_id',
  'o.slug as organization_slug',
  'o.name as organization_name',
] as const;

/**
 * A credential's person and organization: what `accountOf` reads, and whether the person may still sign in.
 * Tokens and sessions join their row onto this by `u.id`.
 */
export function accounts(db: Executor) {
  return db
    .selectFrom('users as u')
    .innerJoin('organizations as o', 'o.id', 'u.organization_id')
    .select([
      'u.id as user_id',
      'u.name as user_name',
      'u.email as user_email',
      'u.kind as user_kind',
      'u.role',
      'u.active as user_active',
      ...ORGANIZATION_COLUMNS,
    ]);
}

/** A token with its account and, when a person issued it, that person as they are now. */
export function findTokenWithAccount(db: Executor, tokenHash: string) {
  return accounts(db)
    .innerJoin('api_tokens as t', 't.user_id', 'u.id')
    .leftJoin('users as issuer', (join) =>
      join.onRef('issuer.id', '=', 't.created_by').onRef('issuer.organization_id', '=', 'u.organization_id'),
    )
    .select([
      't.id as token_id',
      't.scopes',
      't.project_ids',
      't.expires_at',
      't.revoked_at',
      't.created_by',
      'issuer.role as issuer_role',
      'issuer.active as issuer_active',
    ])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** The auth epoch: moved forward by the database with every change that can alter what a token may do. */
export function authEpoch(db: Executor) {
  return db.selectFrom('auth_epoch').select('value').where('id', '=', 1);
}

/** Remembers that the token was used at `at` (the console lists it). */
export async function recordTokenUse(db: Executor, tokenId: number, at: string): Promise<void> {
  await db
    .insertInto('api_token_usage')
    .values({ token_id: tokenId, last_used_at: at })
    .onConflict((oc) => oc.column('token_id').doUpdateSet({ last_used_at: at }))
    .execute();
}
