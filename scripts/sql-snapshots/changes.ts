import * as repo from '../../src/modules/changes/changes.repository.ts';
import { snapshotsOf } from './record.ts';
import { principal } from './samples.ts';

export default snapshotsOf('modules/changes/changes.repository.ts', repo, {
  taskChangeInsert: ({ db }) =>
    repo
      .taskChangeInsert(db, {
        project_id: 10,
        task_id: 42,
        task_key: 'PROJ-7',
        action: 'deleted',
        task: null,
        changed_at: '2026-11-21T09:00:00.000000Z',
      })
      .execute(),
  changesVisibleTo: async ({ db }) => {
    await repo.changesVisibleTo(db, principal, null).execute();
    await repo.changesVisibleTo(db, principal, '2026-11-01T00:00:00.000000Z').execute();
  },
});
