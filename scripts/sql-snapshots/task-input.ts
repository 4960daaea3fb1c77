import * as repo from '../../src/modules/tasks/task-input.repository.ts';
import { snapshotsOf } from './record.ts';
import { principal } from './samples.ts';

export default snapshotsOf('modules/tasks/task-input.repository.ts', repo, {
  namesOfProject: ({ db }) => repo.namesOfProject(db, 'statuses', 10),
  firstOfProject: ({ db }) => repo.firstOfProject(db, 'priorities', 10),
  membersAmong: ({ db }) => repo.membersAmong(db, 10, [3, 4]),
  labelsNamed: ({ db }) => repo.labelsNamed(db, 10, ['ui', 'backend']),
  planningItemExists: ({ db }) => repo.planningItemExists(db, 'sprints', 10, 5),
  taskIdByKey: ({ db }) => repo.taskIdByKey(db, 10, 'PROJ-1'),
  parentIdOf: ({ db }) => repo.parentIdOf(db, 42),
  childIdsOfAny: ({ db }) => repo.childIdsOfAny(db, [42, 43]),
  statusName: ({ db }) => repo.statusName(db, 4),
  openBlockersDueAfter: ({ db }) => repo.openBlockersDueAfter(db, principal, 42, '2026-11-30'),
});
