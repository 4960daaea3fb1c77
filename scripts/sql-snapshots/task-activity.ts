import * as repo from '../../src/modules/tasks/task-activity.repository.ts';
import { snapshotsOf } from './record.ts';
import { firstPage, principal } from './samples.ts';

export default snapshotsOf('modules/tasks/task-activity.repository.ts', repo, {
  activitiesPage: ({ db }) => repo.activitiesPage(db, principal, 42, firstPage),
});
