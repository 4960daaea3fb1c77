import * as repo from '../../src/modules/people/invitation-projects.repository.ts';
import { snapshotsOf } from './record.ts';

export default snapshotsOf('modules/people/invitation-projects.repository.ts', repo, {
  insertInvitationProjects: ({ db }) =>
    repo.insertInvitationProjects(db, 7, [
      { project_id: 10, role: 'member' },
      { project_id: 11, role: 'viewer' },
    ]),
  projectsOfInvitations: ({ db }) => repo.projectsOfInvitations(db, [7, 8]),
  projectsOfInvitationWithIssuerRole: ({ db }) => repo.projectsOfInvitationWithIssuerRole(db, 7, 3),
  grantInvitationProjects: ({ db }) =>
    repo.grantInvitationProjects(db, 42, [{ project_id: 10, role: 'member' }], '2026-11-21T10:00:00.000000Z'),
});
