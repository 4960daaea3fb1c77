import * as repo from '../../src/modules/reports/reports.repository.ts';
import { snapshotsOf } from './record.ts';

export default snapshotsOf('modules/reports/reports.repository.ts', repo, {
  tasksOfProject: ({ db }) => repo.tasksOfProject(db, 10, '2026-11-21T09:00:00.000000Z'),
  fieldChanges: ({ db }) => repo.fieldChanges(db, 10, ['status', 'estimate', 'sprint'], '2026-11-01T23:59:59.999999Z'),
  statusesWithRenames: ({ db }) => repo.statusesWithRenames(db, 10),
  sprintsOfProject: ({ db }) => repo.sprintsOfProject(db, 10),
  estimateUnitOf: ({ db }) => repo.estimateUnitOf(db, 10),
});
