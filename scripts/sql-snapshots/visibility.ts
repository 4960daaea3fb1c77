import * as repo from '../../src/policy/visibility.repository.ts';
import { snapshotsOf } from './record.ts';
import { principal } from './samples.ts';

export default snapshotsOf('policy/visibility.repository.ts', repo, {
  visibleProjects: ({ db }) => repo.visibleProjects(db, principal).select('p.id').execute(),
  visibleProjectIds: ({ db }) => repo.visibleProjectIds(db, principal).execute(),
  findVisibleProjectRef: async ({ db }) => {
    await repo.findVisibleProjectRef(db, principal, { id: 10 });
    await repo.findVisibleProjectRef(db, principal, { key: 'WEB' });
  },
  loadVisibleProjects: ({ db }) => repo.loadVisibleProjects(db, principal),
  projectIdsOfAccount: ({ db }) => repo.projectIdsOfAccount(db, 3).execute(),
  isMemberOf: ({ db }) => repo.isMemberOf(db, 3, 10),
  visibleEndpoints: ({ db }) => repo.visibleEndpoints(db, principal).select('e.id').execute(),
  visibleDeliveries: ({ db }) => repo.visibleDeliveries(db, principal).select('d.id').execute(),
  visibleProjectIdsOfPeople: ({ db }) => repo.visibleProjectIdsOfPeople(db, [3, 4]),
  findAccountIn: ({ db }) => repo.findAccountIn(db, 1, 3),
  visibleCustomFieldIds: ({ db }) => repo.visibleCustomFieldIds(db, principal).execute(),
});
