import type { AppContext } from '../../context.ts';
import { isUniqueViolation, type Executor } from '../../db/database.ts';
import type { ProjectRole } from '../../db/schema.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { ApiError, foundOr404, invalid } from '../../http/errors.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import type { Caller } from '../../identity/caller.ts';
import { type ActionOrigin, recordEvent } from '../../events/record-event.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { projectFor } from '../../policy/index.ts';
import * as repo from './memberships.repository.ts';
import { lockProjectForDecision } from './projects.repository.ts';

export async function listMemberships(
  ctx: AppContext,
  principal: Principal,
  projectId: number | undefined,
  page: PageRequest,
) {
  const { rows, pagination } = await repo.membershipsPage(ctx.db, principal, projectId, page);
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

/** membership.changed, in the transaction of the change; `membership` is the row before a removal, after otherwise. */
async function recordMembershipChange(
  tx: Tx,
  { principal, origin }: Caller,
  membership: MembershipJson,
  change: 'added' | 'role_changed' | 'removed',
  fromRole: ProjectRole | null,
  toRole: ProjectRole | null,
): Promise<void> {
  await recordAudit(tx, {
    organizationId: principal.organizationId,
    actor: principal,
    action:
      change === 'added' ? 'membership.added' : change === 'removed' ? 'membership.removed' : 'membership.changed',
    target: {
      type: 'membership',
      id: membership.id,
      label: `${membership.user_name} in ${membership.project_key}`,
    },
    projectId: membership.project,
    before: fromRole === null ? null : { role: fromRole, user: membership.user },
    after: toRole === null ? null : { role: toRole, user: membership.user },
  });
  await recordMembershipChangedEvent(tx, origin, membership, change, fromRole, toRole);
}

/** The membership.changed event of a change, in its transaction (also for memberships an accepted invitation makes). */
export async function recordMembershipChangedEvent(
  tx: Tx,
  origin: ActionOrigin,
  membership: Pick<MembershipJson, 'id' | 'project' | 'project_key' | 'user' | 'user_name'>,
  change: 'added' | 'role_changed' | 'removed',
  fromRole: ProjectRole | null,
  toRole: ProjectRole | null,
): Promise<void> {
  await recordEvent(tx.db, {
    type: 'membership.changed',
    origin,
    projectId: membership.project,
    occurredAt: tx.clock.nowIso(),
    data: {
      membership: {
        id: membership.id,
        project: { id: membership.project, key: membership.project_key },
        user: { id: membership.user, name: membership.user_name },
      },
      change,
      from_role: fromRole,
      to_role: toRole,
    },
  });
}

export async function createMembership(
  tx: Tx,
  { principal, origin }: Caller,
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
  const membership = await visibleMembership(tx.db, principal, id);
  await recordMembershipChange(tx, { principal, origin }, membership, 'added', null, membership.role);
  return membership;
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

export async function updateMembership(
  tx: Tx,
  { principal, origin }: Caller,
  id: number,
  role: ProjectRole | undefined,
) {
  await changeMembership(tx, principal, id, async (current) => {
    if (role === undefined || role === current.role) return;
    if (current.role === 'admin') await assertAnotherAdminRemains(tx.db, current.project, id);
    await repo.updateMembershipRole(tx.db, id, role, tx.clock.nowIso());
    await recordMembershipChange(tx, { principal, origin }, current, 'role_changed', current.role, role);
  });
  return visibleMembership(tx.db, principal, id);
}

export async function deleteMembership(tx: Tx, { principal, origin }: Caller, id: number): Promise<void> {
  await changeMembership(tx, principal, id, async (current) => {
    if (current.role === 'admin') await assertAnotherAdminRemains(tx.db, current.project, id);
    await repo.deleteMembershipRow(tx.db, id);
    await recordMembershipChange(tx, { principal, origin }, current, 'removed', current.role, null);
  });
}
