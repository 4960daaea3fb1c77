import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { OidcLoginsTable, OidcMappingsTable } from '../../db/schema.ts';

/** OpenID Connect sign-in: pending flows (by the SHA-256 of their `state`) and people's links to provider subjects. */

export async function insertLogin(db: Executor, row: Omit<Insertable<OidcLoginsTable>, 'id'>): Promise<number> {
  const inserted = await db.insertInto('oidc_logins').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

/**
 * Uses the live, unused flow of this state: marks it used and answers it, or undefined when
 * there is none (unknown, expired or already used), so a callback can be taken at most once.
 */
export async function useLogin(db: Executor, stateHash: string, now: string) {
  const row = await db
    .selectFrom('oidc_logins')
    .select(['id', 'nonce', 'code_verifier', 'purpose', 'requested_by', 'next_path'])
    .where('state_hash', '=', stateHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  const result = await db
    .updateTable('oidc_logins')
    .set({ used_at: now })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? row : undefined;
}

export async function saveTestResult(db: Executor, id: number, result: string): Promise<void> {
  await db.updateTable('oidc_logins').set({ result }).where('id', '=', id).execute();
}

/** A test sign-in's stored outcome, for the owner who started it. */
export function findTestResult(db: Executor, id: number, requestedBy: number) {
  return db
    .selectFrom('oidc_logins')
    .select(['id', 'result', 'created_at'])
    .where('id', '=', id)
    .where('purpose', '=', 'test')
    .where('requested_by', '=', requestedBy)
    .where('result', 'is not', null)
    .executeTakeFirst();
}

/** Deletes flows that expired before `cutoff`, test results included. */
export async function deleteExpiredLogins(db: Executor, cutoff: string): Promise<void> {
  await db.deleteFrom('oidc_logins').where('expires_at', '<', cutoff).execute();
}

export function findIdentity(db: Executor, issuer: string, subject: string) {
  return db
    .selectFrom('oidc_identities as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .select(['i.id', 'u.id as user_id', 'u.organization_id', 'u.active', 'u.role', 'u.email', 'u.name'])
    .where('i.issuer', '=', issuer)
    .where('i.subject', '=', subject)
    .executeTakeFirst();
}

export async function insertIdentity(
  db: Executor,
  row: { user_id: number; issuer: string; subject: string; at: string },
): Promise<void> {
  await db
    .insertInto('oidc_identities')
    .values({
      user_id: row.user_id,
      issuer: row.issuer,
      subject: row.subject,
      created_at: row.at,
      last_sign_in_at: row.at,
    })
    .execute();
}

export async function touchIdentity(db: Executor, id: number, at: string): Promise<void> {
  await db.updateTable('oidc_identities').set({ last_sign_in_at: at }).where('id', '=', id).execute();
}

/** The humans of the organization with this (lower-cased) address, oldest first. */
export function humansWithEmailIn(db: Executor, organizationId: number, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'active', 'role', 'email', 'name'])
    .where('organization_id', '=', organizationId)
    .where('kind', '=', 'human')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .orderBy('id')
    .execute();
}

/** The organization of this slug, or the only one when `slug` is null (undefined when there are none or several). */
export async function organizationFor(db: Executor, slug: string | null) {
  if (slug !== null)
    return db.selectFrom('organizations').select(['id', 'slug', 'name']).where('slug', '=', slug).executeTakeFirst();
  const rows = await db.selectFrom('organizations').select(['id', 'slug', 'name']).orderBy('id').limit(2).execute();
  return rows.length === 1 ? rows[0] : undefined;
}

export function findAccountRole(db: Executor, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'role', 'active', 'name'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

/** The person's memberships of these projects. */
export function membershipsOf(db: Executor, userId: number, projectIds: number[]) {
  return db
    .selectFrom('project_memberships')
    .select(['id', 'project_id', 'role'])
    .where('user_id', '=', userId)
    .where('project_id', 'in', projectIds.length ? projectIds : [-1])
    .execute();
}

/** The group mapping saved in Settings → Sign-in, with the name of who saved it. */
export function findMapping(db: Executor, organizationId: number) {
  return db
    .selectFrom('oidc_mappings as m')
    .leftJoin('users as u', 'u.id', 'm.updated_by')
    .select([
      'm.groups_claim',
      'm.role_map',
      'm.project_map',
      'm.updated_at',
      'm.updated_by',
      'u.name as updated_by_name',
    ])
    .where('m.organization_id', '=', organizationId)
    .executeTakeFirst();
}

export async function upsertMapping(db: Executor, row: Insertable<OidcMappingsTable>): Promise<void> {
  const { organization_id: _key, ...changes } = row;
  await db
    .insertInto('oidc_mappings')
    .values(row)
    .onConflict((conflict) => conflict.column('organization_id').doUpdateSet(changes))
    .execute();
}

export async function deleteMapping(db: Executor, organizationId: number): Promise<void> {
  await db.deleteFrom('oidc_mappings').where('organization_id', '=', organizationId).execute();
}
