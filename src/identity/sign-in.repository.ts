import type { Executor } from '../db/database.ts';

/** Who signs in: people found by address (lower-cased by the caller) or id, with what sign-in checks. */

/** Human accounts with this (lower-cased) address in any organization, oldest first, with their password hash. */
export function humansWithEmail(db: Executor, email: string, options: { activeOnly: boolean }) {
  return db
    .selectFrom('users')
    .select(['id', 'organization_id', 'email', 'name', 'password_hash', 'active', 'role'])
    .where('kind', '=', 'human')
    .$if(options.activeOnly, (qb) => qb.where('active', '=', 1))
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .orderBy('id')
    .execute();
}

/** A signed-in person with their organization, for the console's session payload. */
export function findPersonWithOrganization(db: Executor, userId: number) {
  return db
    .selectFrom('users as u')
    .innerJoin('organizations as o', 'o.id', 'u.organization_id')
    .select(['u.id', 'u.email', 'u.name', 'u.role', 'o.id as org_id', 'o.slug as org_slug', 'o.name as org_name'])
    .where('u.id', '=', userId)
    .executeTakeFirstOrThrow();
}
