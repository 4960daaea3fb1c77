import * as repo from '../../src/modules/projects/memberships.repository.ts';
import { snapshotsOf } from './record.ts';
import { firstPage, principal } from './samples.ts';

const at = '2026-11-21T09:00:00.000Z';

export default snapshotsOf('modules/projects/memberships.repository.ts', repo, {
  membershipsPage: ({ db }) => repo.membershipsPage(db, principal, 10, firstPage),
  findVisibleMembership: ({ db }) => repo.findVisibleMembership(db, principal, 7),
  findUserOfOrganization: ({ db }) => repo.findUserOfOrganization(db, 1, 3),
  insertMembership: ({ db }) => repo.insertMembership(db, { project_id: 10, user_id: 3, role: 'member', at }),
  findOtherAdmin: ({ db }) => repo.findOtherAdmin(db, 10, 7),
  updateMembershipRole: ({ db }) => repo.updateMembershipRole(db, 7, 'viewer', at),
  deleteMembershipRow: ({ db }) => repo.deleteMembershipRow(db, 7),
});
