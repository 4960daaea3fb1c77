import type { AppContext } from '../../context.ts';
import { isUniqueViolation, type Executor } from '../../db/database.ts';
import { paginate } from '../../db/paginate.ts';
import type { ProjectRole } from '../../db/schema.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { ApiError, foundOr404, invalid } from '../../http/errors.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../auth/principal.ts';
import { projectFor } from '../../policy/index.ts';
import * as repo from './memberships.repository.ts';
import { lockProjectForDecision } from './projects.repository.ts';

export async function listMemberships(
  ctx: AppContext,
  principal: Principal,
  projectId: number | undefined,
  page: PageRequest,
) {
  const { rows, pagination } = await paginate(repo.visibleMemberships(ctx.db, principal, projectId), page, {
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
  return foundOr404(repo.findVisibleMembership(db, principal, id), 'Membership');
}

export type MembershipJson = repo.MembershipRow;

/** The project the caller must administer; invisible is 404 (so an account cannot add itself anywhere new). */
const administeredProject = (ctx: AppContext, principal: Principal, projectId: number) =>
  projectFor(ctx.db, principal, { id: projectId }, 'project.administer', 'memberships');

export async function createMembership(
  tx: Tx,
  principal: Principal,
  input: { project: number; user: number; role?: ProjectRole },
): Promise<MembershipJson> {
  await administeredProject(tx, principal, input.project);
  const user = await repo.findUserOfOrganization(tx.db, principal.organizationId, input.user);
  if (!user) throw invalid({ user: 'no such user in this workspace' });
  let id: number;
  try {
    id = await repo.insertMembership(tx.db, {
      project_id: input.project,
      user_id: input.user,
      role: input.role ?? 'member',
      at: tx.clock.nowIso(),
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError('ALREADY_EXISTS', 'The user is already a member of this project.', { field: 'user' });
    throw error;
  }
  return visibleMembership(tx.db, principal, id);
}

/** LAST_ADMIN unless the project has an admin other than this membership; the API and the operator CLI both ask it. */
export async function assertAnotherAdminRemains(db: Executor, projectId: number, membershipId: number): Promise<void> {
  if (!(await repo.findOtherAdmin(db, projectId, membershipId)))
    throw new ApiError('LAST_ADMIN', 'A project must keep at least one admin.');
}

/**
 * Changes one membership, serialized with every other membership change of its project (the
 * project row is locked first), so concurrent demotions or removals cannot each see another
 * admin and together leave none. The membership is read again under the lock.
 */
async function changeMembership(
  tx: Tx,
  principal: Principal,
  id: number,
  change: (current: MembershipJson) => Promise<void>,
): Promise<void> {
  const before = await visibleMembership(tx.db, principal, id);
  await administeredProject(tx, principal, before.project);
  await lockProjectForDecision(tx.db, tx.dialect, before.project);
  await change(await visibleMembership(tx.db, principal, id));
}

export async function updateMembership(tx: Tx, principal: Principal, id: number, role: ProjectRole | undefined) {
  await changeMembership(tx, principal, id, async (current) => {
    if (role === undefined || role === current.role) return;
    if (current.role === 'admin') await assertAnotherAdminRemains(tx.db, current.project, id);
    await repo.updateMembershipRole(tx.db, id, role, tx.clock.nowIso());
  });
  return visibleMembership(tx.db, principal, id);
}

export async function deleteMembership(tx: Tx, principal: Principal, id: number): Promise<void> {
  await changeMembership(tx, principal, id, async (current) => {
    if (current.role === 'admin') await assertAnotherAdminRemains(tx.db, current.project, id);
    await repo.deleteMembershipRow(tx.db, id);
  });
}
