import * as repo from '../../src/modules/workflows/project-options.repository.ts';
import { snapshotsOf } from './record.ts';
import { firstPage } from './samples.ts';

export default snapshotsOf('modules/workflows/project-options.repository.ts', repo, {
  optionsPage: async ({ db }) => {
    await repo.optionsPage(db, 'priorities', 10, firstPage);
    await repo.optionsPage(db, 'task_types', 10, firstPage);
  },
  insertOption: ({ db }) => repo.insertOption(db, 'priorities', { project_id: 10, name: 'Urgent', position: 3 }),
  setProjectDefaults: ({ db }) =>
    repo.setProjectDefaults(db, 10, {
      workflow_id: 2,
      default_status_id: 4,
      default_task_type_id: 1,
      default_priority_id: 2,
    }),
});
