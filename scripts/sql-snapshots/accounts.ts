import * as repo from '../../src/modules/accounts/accounts.repository.ts';
import { snapshotsOf } from './record.ts';
import { principal } from './samples.ts';

const at = '2026-11-21T09:00:00.000Z';

export default snapshotsOf('modules/accounts/accounts.repository.ts', repo, {
  insertOrganization: ({ db }) => repo.insertOrganization(db, { name: 'Acme', slug: 'acme', created_at: at }),
  findOrganizationBySlug: ({ db }) => repo.findOrganizationBySlug(db, 'acme'),
  insertUser: ({ db }) =>
    repo.insertUser(db, {
      organization_id: 1,
      kind: 'human',
      name: 'Ada',
      email: 'ada@example.test',
      handle: 'ada',
      role: 'member',
      created_at: at,
    }),
  findAccount: ({ db }) => repo.findAccount(db, 3),
  projectsByKeys: async ({ db }) => {
    await repo.projectsByKeys(db, 1, ['WEB', 'OPS']);
    await repo.projectsByKeys(db, 1, []);
  },
  findMembership: ({ db }) => repo.findMembership(db, 10, 3),
  updateMembershipRole: ({ db }) => repo.updateMembershipRole(db, 8, 'viewer', at),
  visibleProjectsWithRole: ({ db }) => repo.visibleProjectsWithRole(db, principal),
  projectKeysOf: ({ db }) => repo.projectKeysOf(db, [10, 11]),
});
