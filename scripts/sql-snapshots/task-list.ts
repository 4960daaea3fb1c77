import * as repo from '../../src/modules/tasks/task-list.repository.ts';
import { type SnapshotDb, snapshotsOf } from './record.ts';
import { firstPage } from './samples.ts';

const context = ({ db, dialect }: SnapshotDb) => ({ db, dialect, state: { preparedStatements: new Map() } });
const matching: repo.TaskSet = { projectId: 10, filter: { statusCategories: ['todo'], labels: ['ui'] } };

export default snapshotsOf('modules/tasks/task-list.repository.ts', repo, {
  taskListPage: async (s) => {
    await repo.taskListPage(context(s), matching, firstPage);
    await repo.taskListPage(context(s), matching, { mode: 'cursor', afterId: 0, limit: 50 });
  },
  queryOrderedPage: (s) =>
    repo.queryOrderedPage(context(s), matching, [{ id: 10, key: 'WEB' }], [{ field: 'created', direction: 'desc' }], {
      mode: 'offset',
      limit: 50,
      offset: 0,
      ordering: undefined,
    }),
  taskRowsInOrder: (s) => repo.taskRowsInOrder(context(s), [43, 42]),
  tasksByKey: (s) => repo.tasksByKey(context(s), 'PROJ-7'),
});
