import * as repo from '../../src/modules/projects/projects.repository.ts';
import { snapshotsOf } from './record.ts';
import { firstPage, principal } from './samples.ts';

const at = '2026-11-21T09:00:00.000Z';

export default snapshotsOf('modules/projects/projects.repository.ts', repo, {
  visibleProjectsPage: ({ db }) => repo.visibleProjectsPage(db, principal, firstPage),
  findVisibleProject: ({ db }) => repo.findVisibleProject(db, principal, 10),
  findProjectByKey: ({ db }) => repo.findProjectByKey(db, 1, 'WEB'),
  findNamedId: ({ db }) => repo.findNamedId(db, 'statuses', 10, 'Done'),
  projectHasTasks: ({ db }) => repo.projectHasTasks(db, 10),
  insertProject: ({ db }) =>
    repo.insertProject(db, { organization_id: 1, key: 'WEB', name: 'Website', description: '', created_by: 3, at }),
  updateProjectSettings: ({ db }) => repo.updateProjectSettings(db, 10, { name: 'Website', default_status_id: 4 }, at),
  deleteProjectRow: ({ db }) => repo.deleteProjectRow(db, 10),
  lockProject: ({ db, dialect }) => repo.lockProject(db, dialect, 10),
  lockProjectForDecision: ({ db, dialect }) => repo.lockProjectForDecision(db, dialect, 10),
  lockProjectWithTasks: ({ db, dialect }) => repo.lockProjectWithTasks(db, dialect, 10),
});
