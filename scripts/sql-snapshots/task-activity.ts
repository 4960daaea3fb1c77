import * as repo from '../../src/modules/tasks/task-activity.repository.ts';
import { snapshotsOf } from './record.ts';

export default snapshotsOf('modules/tasks/task-activity.repository.ts', repo, {
  activitiesOfTask: ({ db }) => repo.activitiesOfTask(db, 42).execute(),
});
