import type { Executor } from '../db/database.ts';

/** What an earlier run of the demo left, so running it again reuses it. */

export function findOrganizationBySlug(db: Executor, slug: string) {
  return db.selectFrom('organizations').select(['id', 'slug', 'name']).where('slug', '=', slug).executeTakeFirst();
}

export function findServiceAccountNamed(db: Executor, organizationId: number, name: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('organization_id', '=', organizationId)
    .where('kind', '=', 'service')
    .where('name', '=', name)
    .executeTakeFirst();
}

export function findUserByEmail(db: Executor, organizationId: number, email: string) {
  return db
    .selectFrom('users')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('email', '=', email)
    .executeTakeFirst();
}
