import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { ProjectRole, UsersTable } from '../../db/schema.ts';
import type { Principal } from '../../identity/principal.ts';
import { visibleProjects } from '../../policy/index.ts';

export function insertOrganization(db: Executor, values: { name: string; slug: string; created_at: string }) {
  return db.insertInto('organizations').values(values).returning(['id', 'slug', 'name']).executeTakeFirstOrThrow();
}

export function findOrganizationBySlug(db: Executor, slug: string) {
  return db.selectFrom('organizations').select(['id', 'slug', 'name']).where('slug', '=', slug).executeTakeFirst();
}

export function insertUser(db: Executor, values: Insertable<UsersTable>) {
  return db
    .insertInto('users')
    .values(values)
    .returning(['id', 'organization_id', 'kind', 'name', 'email', 'role'])
    .executeTakeFirstOrThrow();
}

export function findAccount(db: Executor, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'organization_id', 'kind', 'name'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The organization's projects among `keys`. */
export function projectsByKeys(db: Executor, organizationId: number, keys: string[]) {
  return db
    .selectFrom('projects')
    .select(['id', 'key'])
    .where('organization_id', '=', organizationId)
    .where('key', 'in', keys.length ? keys : [''])
    .execute();
}

export function findMembership(db: Executor, projectId: number, userId: number) {
  return db
    .selectFrom('project_memberships')
    .select(['id', 'role'])
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function updateMembershipRole(db: Executor, id: number, role: ProjectRole, at: string): Promise<void> {
  await db.updateTable('project_memberships').set({ role, updated_at: at }).where('id', '=', id).execute();
}

/** Every project the caller sees, with its role there, by key. */
export function visibleProjectsWithRole(db: Executor, principal: Principal) {
  return visibleProjects(db, principal).select(['p.id', 'p.key', 'p.name', 'pm.role']).orderBy('p.key').execute();
}

/** Keys of the projects with these ids, in key order. */
export async function projectKeysOf(db: Executor, ids: number[]): Promise<string[]> {
  const rows = await db
    .selectFrom('projects')
    .select('key')
    .where('id', 'in', ids.length ? ids : [-1])
    .orderBy('key')
    .execute();
  return rows.map((r) => r.key);
}
