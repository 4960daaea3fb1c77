import * as repo from '../../src/modules/tasks/task.repository.ts';
import { snapshotsOf } from './record.ts';
import { principal } from './samples.ts';

export default snapshotsOf('modules/tasks/task.repository.ts', repo, {
  selectTaskRows: ({ db }) => repo.selectTaskRows(db).execute(),
  selectTaskRowsWithExtras: ({ db, dialect }) => repo.selectTaskRowsWithExtras(db, dialect).execute(),
  taskWithExtras: ({ db, dialect }) => repo.taskWithExtras(db, dialect, 42).execute(),
  tasksWithKeyAndEpoch: ({ db, dialect }) => repo.tasksWithKeyAndEpoch(db, dialect, 'PROJ-7').execute(),
  taskExtrasByIds: ({ db, dialect }) => repo.taskExtrasByIds(db, dialect, [42, 43]),
  visibleTasks: ({ db }) => repo.visibleTasks(db, principal).select('t.id').execute(),
  findVisibleTaskRef: ({ db }) => repo.findVisibleTaskRef(db, principal, 'PROJ-7'),
  lockTask: ({ db, dialect }) => repo.lockTask(db, dialect, 42),
  lockTaskIfExists: ({ db, dialect }) => repo.lockTaskIfExists(db, dialect, 42),
  labelIdsOf: ({ db }) => repo.labelIdsOf(db, 42),
  tasksOfProject: async ({ db }) => {
    await repo.tasksOfProject(db, 10, {}).selectAll('t').execute();
    await repo
      .tasksOfProject(db, 10, {
        statuses: ['To Do', 'Done'],
        statusCategories: ['todo'],
        taskTypes: ['Bug'],
        priorities: ['High'],
        assignee: 3,
        milestone: null,
        sprint: 5,
        parentKey: 'PROJ-1',
        labels: ['ui'],
        updatedSince: '2026-11-01T00:00:00.000000Z',
        dueBefore: '2026-12-31',
        dueAfter: '2026-11-01',
      })
      .selectAll('t')
      .execute();
  },
  subtasksOf: ({ db }) => repo.subtasksOf(db, 42).selectAll('t').execute(),
  countTasksUpTo: ({ db }) =>
    repo.countTasksUpTo(db, repo.tasksOfProject(db, 10, { statusCategories: ['todo'], labels: ['ui'] }), 1051),
  listedTasks: ({ db }) =>
    repo.listedTasks(repo.tasksOfProject(db, 10, { statusCategories: ['todo'], labels: ['ui'] })).execute(),
  taskListIds: ({ db }) =>
    repo.taskListIds(repo.tasksOfProject(db, 10, { statusCategories: ['todo'], labels: ['ui'] })).execute(),
  taskRowsWithExtrasByIdList: ({ db, dialect }) =>
    repo.taskRowsWithExtrasByIdList(db, dialect, dialect === 'postgres' ? [43, 42] : '[43,42]').execute(),
  taskIdsByKeys: ({ db }) => repo.taskIdsByKeys(db, 10, ['PROJ-7', 'PROJ-8']),
});
