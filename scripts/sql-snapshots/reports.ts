import * as repo from '../../src/modules/reports/reports.repository.ts';
import { snapshotsOf } from './record.ts';

export default snapshotsOf('modules/reports/reports.repository.ts', repo, {
  changesSince: ({ db }) => repo.changesSince(db, 10, 120, true),
  tasksOfProject: ({ db }) => repo.tasksOfProject(db, 10, [3, 4]),
  fieldChanges: ({ db }) => repo.fieldChanges(db, 10, null),
  statusesWithRenames: ({ db }) => repo.statusesWithRenames(db, 10),
  sprintsOfProject: ({ db }) => repo.sprintsOfProject(db, 10),
  estimateUnitOf: ({ db }) => repo.estimateUnitOf(db, 10),
  taskTypesOf: ({ db }) => repo.taskTypesOf(db, 10),
});
