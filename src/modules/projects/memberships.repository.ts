import type { Executor } from '../../db/database.ts';
import { insertWithTimestamps } from '../../db/insert-with-timestamps.ts';
import { paginate } from '../../db/paginate.ts';
import type { ProjectRole } from '../../db/schema.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { visibleProjectIds } from '../../policy/visibility.repository.ts';

/** Memberships of the caller's visible projects, optionally of one project, with project key and user. */
function visibleMemberships(db: Executor, principal: Principal, projectId?: number) {
  const query = db
    .selectFrom('project_memberships as m')
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .where('m.project_id', 'in', visibleProjectIds(db, principal))
    .select([
      'm.id',
      'm.project_id as project',
      'p.key as project_key',
      'm.user_id as user',
      'u.name as user_name',
      'u.handle as user_handle',
      'u.kind as user_kind',
      'm.role',
      'm.created_at',
      'm.updated_at',
    ]);
  return projectId === undefined ? query : query.where('m.project_id', '=', projectId);
}

/** One page of the memberships of the caller's visible projects, optionally of one project. */
export function membershipsPage(db: Executor, principal: Principal, projectId: number | undefined, page: PageRequest) {
  return paginate(visibleMemberships(db, principal, projectId), page, {
    idColumn: 'm.id',
    orderable: { id: 'm.id', created_at: 'm.created_at', role: 'm.role', user: 'm.user_id' },
    defaultOrdering: 'id',
  });
}

export type MembershipRow = NonNullable<Awaited<ReturnType<typeof findVisibleMembership>>>;

export function findVisibleMembership(db: Executor, principal: Principal, id: number) {
  return visibleMemberships(db, principal).where('m.id', '=', id).executeTakeFirst();
}

export function findUserOfOrganization(db: Executor, organizationId: number, userId: number) {
  return db
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

export function insertMembership(
  db: Executor,
  { at, ...values }: { project_id: number; user_id: number; role: ProjectRole; at: string },
): Promise<number> {
  return insertWithTimestamps(db, 'project_memberships', values, at);
}

/** An admin membership of the project other than `membershipId`, if any. */
export function findOtherAdmin(db: Executor, projectId: number, membershipId: number) {
  return db
    .selectFrom('project_memberships')
    .select('id')
    .where('project_id', '=', projectId)
    .where('role', '=', 'admin')
    .where('id', '!=', membershipId)
    .executeTakeFirst();
}

export async function updateMembershipRole(db: Executor, id: number, role: ProjectRole, at: string): Promise<void> {
  await db.updateTable('project_memberships').set({ role, updated_at: at }).where('id', '=', id).execute();
}

export async function deleteMembershipRow(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('project_memberships').where('id', '=', id).execute();
}
