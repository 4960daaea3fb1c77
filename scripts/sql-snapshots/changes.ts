import * as repo from '../../src/modules/changes/changes.repository.ts';
import { snapshotsOf } from './record.ts';
import { principal } from './samples.ts';

const firstCursorPage = { mode: 'cursor', afterId: 0, limit: 50 } as const;

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
  changesPage: async ({ db }) => {
    await repo.changesPage(db, principal, null, firstCursorPage);
    await repo.changesPage(db, principal, '2026-11-01T00:00:00.000000Z', firstCursorPage);
  },
  changesFeedHorizon: ({ db }) => repo.changesFeedHorizon(db),
  changeStatesPage: ({ db }) => repo.changeStatesPage(db, principal, null, firstCursorPage),
  changesByIds: ({ db }) => repo.changesByIds(db, [7, 9]),
  latestChangeIdsOf: ({ db }) => repo.latestChangeIdsOf(db, ['PROJ-7', 'PROJ-9']),
});
