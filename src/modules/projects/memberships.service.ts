import type { AppContext } from '../../context.ts';
import { type BeforeCommit, transactionWith } from '../../db/before-commit.ts';
import { isUniqueViolation, type Executor, type Trx } from '../../db/database.ts';
import { lockProjectForDecision } from './lock.ts';
import type { ProjectRole } from '../../db/schema.ts';
import { ApiError, invalid, notFound } from '../../http/errors.ts';
import { type PageRequest } from '../../http/pagination.ts';
import { paginate } from '../../db/paginate.ts';
import type { Principal } from '../auth/principal.ts';
import { projectFor, visibleProjectIds } from '../../policy/index.ts';

function selectMemberships(db: Executor, principal: Principal) {
  return db
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
      'u.kind as user_kind',
      'm.role',
      'm.created_at',
      'm.updated_at',
    ]);
}

export async function listMemberships(ctx: AppContext, principal: Principal, projectId: number | undefined, page: PageRequest) {
  let query = selectMemberships(ctx.db, principal);
  if (projectId !== undefined) query = query.where('m.project_id', '=', projectId);
  const { rows, pagination } = await paginate(query, page, {
    idColumn: 'm.id',
    orderable: { id: 'm.id', created_at: 'm.created_at', role: 'm.role', user: 'm.user_id' },
    defaultOrdering: 'id',
  });
  return { data: rows, pagination };
}

export async function getMembership(ctx: AppContext, principal: Principal, id: number) {
  return visibleMembership(ctx.db, principal, id);
}

async function visibleMembership(db: Executor, principal: Principal, id: number) {
  const row = await selectMemberships(db, principal).where('m.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Membership');
  return row;
}

export type MembershipJson = Awaited<ReturnType<typeof visibleMembership>>;

/** The project the caller must administer; invisible is 404 (so an account cannot add itself anywhere new). */
const administeredProject = (ctx: AppContext, principal: Principal, projectId: number) =>
  projectFor(ctx.db, principal, { id: projectId }, 'project.administer', 'memberships');

export async function createMembership(
  ctx: AppContext,
  principal: Principal,
  input: { project: number; user: number; role?: ProjectRole },
  beforeCommit?: BeforeCommit<MembershipJson>,
): Promise<MembershipJson> {
  await administeredProject(ctx, principal, input.project);
  const user = await ctx.db
    .selectFrom('users')
    .select('id')
    .where('id', '=', input.user)
    .where('organization_id', '=', principal.organizationId)
    .executeTakeFirst();
  if (!user) throw invalid({ user: 'no such user in this workspace' });

  const now = ctx.clock.nowIso();
  try {
    return await transactionWith(ctx.db, async (trx) => {
      const row = await trx
        .insertInto('project_memberships')
        .values({ project_id: input.project, user_id: input.user, role: input.role ?? 'member', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return visibleMembership(trx, principal, row.id);
    }, beforeCommit);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('ALREADY_EXISTS', 'The user is already a member of this project.', { field: 'user' });
    throw error;
  }
}

/** LAST_ADMIN unless the project has an admin other than this membership; the API and the operator CLI both ask it. */
export async function assertAnotherAdminRemains(trx: Trx, projectId: number, membershipId: number): Promise<void> {
  const other = await trx
    .selectFrom('project_memberships')
    .select('id')
    .where('project_id', '=', projectId)
    .where('role', '=', 'admin')
    .where('id', '!=', membershipId)
    .executeTakeFirst();
  if (!other) throw new ApiError('LAST_ADMIN', 'A project must keep at least one admin.');
}

/**
 * Changes one membership, serialized with every other membership change of its project (the
 * project row is locked first), so concurrent demotions or removals cannot each see another
 * admin and together leave none. The membership is read again under the lock.
 */
async function changeMembership(ctx: AppContext, principal: Principal, id: number, change: (trx: Trx, current: MembershipJson) => Promise<void>) {
  const before = await getMembership(ctx, principal, id);
  await administeredProject(ctx, principal, before.project);
  await ctx.db.transaction().execute(async (trx) => {
    await lockProjectForDecision(trx, ctx.dialect, before.project);
    await change(trx, await visibleMembership(trx, principal, id));
  });
}

export async function updateMembership(ctx: AppContext, principal: Principal, id: number, role: ProjectRole | undefined) {
  await changeMembership(ctx, principal, id, async (trx, current) => {
    if (role === undefined || role === current.role) return;
    if (current.role === 'admin') await assertAnotherAdminRemains(trx, current.project, id);
    await trx.updateTable('project_memberships').set({ role, updated_at: ctx.clock.nowIso() }).where('id', '=', id).execute();
  });
  return getMembership(ctx, principal, id);
}

export async function deleteMembership(ctx: AppContext, principal: Principal, id: number): Promise<void> {
  await changeMembership(ctx, principal, id, async (trx, current) => {
    if (current.role === 'admin') await assertAnotherAdminRemains(trx, current.project, id);
    await trx.deleteFrom('project_memberships').where('id', '=', id).execute();
  });
}
