import * as repo from '../../src/modules/tasks/task-board.repository.ts';
import { tasksOfProject } from '../../src/modules/tasks/task.repository.ts';
import { snapshotsOf } from './record.ts';

export default snapshotsOf('modules/tasks/task-board.repository.ts', repo, {
  boardStatuses: ({ db }) => repo.boardStatuses(db, 10),
  countsByStatus: (s) => repo.countsByStatus(s, { projectId: 10, filter: { assignee: 3 } }),
  columnIds: (s) => repo.columnIds(s, { projectId: 10, filter: { labels: ['ui'] } }, 4, 120, 50),
  withText: ({ db, dialect }) =>
    repo
      .withText(tasksOfProject(db, 10, {}), dialect, 'login 100%')
      .select('t.id')
      .execute(),
});
