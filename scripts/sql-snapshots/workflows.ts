import * as repo from '../../src/modules/workflows/workflows.repository.ts';
import { snapshotsOf } from './record.ts';
import { firstPage, principal } from './samples.ts';

const at = '2026-11-21T09:00:00.000Z';

export default snapshotsOf('modules/workflows/workflows.repository.ts', repo, {
  workflowsPage: ({ db }) => repo.workflowsPage(db, principal, { project: 10 }, firstPage),
  findVisibleWorkflow: ({ db }) => repo.findVisibleWorkflow(db, principal, 2),
  insertWorkflow: ({ db }) => repo.insertWorkflow(db, { project_id: 10, name: 'Kanban', description: '', at }),
  updateWorkflowFields: ({ db }) => repo.updateWorkflowFields(db, 2, { name: 'Kanban' }, at),
  touchWorkflows: ({ db }) => repo.touchWorkflows(db, [2, 3], at),
  activeWorkflowOf: ({ db }) => repo.activeWorkflowOf(db, 10),
  setActiveWorkflow: ({ db }) => repo.setActiveWorkflow(db, 10, 2, at),
  deleteWorkflowWithTransitions: ({ db }) => repo.deleteWorkflowWithTransitions(db, 2),
});
