import * as repo from '../../src/modules/tasks/task-list.repository.ts';
import { tasksOfProject } from '../../src/modules/tasks/task.repository.ts';
import { type SnapshotDb, snapshotsOf } from './record.ts';
import { firstPage } from './samples.ts';

const context = ({ db, dialect }: SnapshotDb) => ({ db, dialect, state: { preparedStatements: new Map() } });
const matching = ({ db }: SnapshotDb) => tasksOfProject(db, 10, { statusCategories: ['todo'], labels: ['ui'] });

export default snapshotsOf('modules/tasks/task-list.repository.ts', repo, {
  taskListPage: async (s) => {
    await repo.taskListPage(context(s), matching(s), firstPage);
    await repo.taskListPage(context(s), matching(s), { mode: 'cursor', afterId: 0, limit: 50 });
  },
  queryOrderedPage: (s) =>
    repo.queryOrderedPage(
      context(s),
      () => matching(s),
      [{ id: 10, key: 'WEB' }],
      [{ field: 'created', direction: 'desc' }],
      {
        mode: 'offset',
        limit: 50,
        offset: 0,
        ordering: undefined,
        byWords: false,
      },
    ),
  taskRowsInOrder: (s) => repo.taskRowsInOrder(context(s), [43, 42]),
});
