import type { Executor } from '../../db/database.ts';
import type { ProjectRole } from '../../db/schema.ts';
import { insertMembership } from '../projects/memberships.repository.ts';

/** The projects (and roles there) an invitation adds its person to. */
export async function insertInvitationProjects(
  db: Executor,
  invitationId: number,
  projects: Array<{ project_id: number; role: ProjectRole }>,
): Promise<void> {
  if (!projects.length) return;
  await db
    .insertInto('invitation_projects')
    .values(projects.map((p) => ({ invitation_id: invitationId, ...p })))
    .execute();
}

/** The projects of these invitations, by key, in key order. */
export function projectsOfInvitations(db: Executor, invitationIds: number[]) {
  if (!invitationIds.length) return Promise.resolve([]);
  return db
    .selectFrom('invitation_projects as ip')
    .innerJoin('projects as p', 'p.id', 'ip.project_id')
    .select(['ip.invitation_id', 'ip.project_id', 'p.key', 'p.name', 'ip.role'])
    .where('ip.invitation_id', 'in', invitationIds)
    .orderBy('p.key')
    .execute();
}

/**
 * The projects of one invitation with the role its inviter has in each now (null when the
 * inviter is no longer a member, or when the operator invited), in key order.
 */
export function projectsOfInvitationWithIssuerRole(db: Executor, invitationId: number, issuerId: number | null) {
  return db
    .selectFrom('invitation_projects as ip')
    .innerJoin('projects as p', 'p.id', 'ip.project_id')
    .leftJoin('project_memberships as issuer', (join) =>
      join.onRef('issuer.project_id', '=', 'ip.project_id').on('issuer.user_id', '=', issuerId ?? -1),
    )
    .select(['ip.project_id', 'p.key', 'p.name', 'ip.role', 'issuer.role as issuer_role'])
    .where('ip.invitation_id', '=', invitationId)
    .orderBy('p.key')
    .execute();
}

/** Makes the accepted invitation's memberships for `userId` (a new account, so none exists yet); their ids, in order. */
export async function grantInvitationProjects(
  db: Executor,
  userId: number,
  projects: Array<{ project_id: number; role: ProjectRole }>,
  at: string,
): Promise<number[]> {
  const ids = [];
  for (const row of projects)
    ids.push(await insertMembership(db, { project_id: row.project_id, user_id: userId, role: row.role, at }));
  return ids;
}
