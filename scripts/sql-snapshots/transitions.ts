import * as repo from '../../src/modules/workflows/transitions.repository.ts';
import { snapshotsOf } from './record.ts';
import { principal, firstPage } from './samples.ts';

const at = '2026-11-21T09:00:00.000Z';

export default snapshotsOf('modules/workflows/transitions.repository.ts', repo, {
  transitionsPage: ({ db }) => repo.transitionsPage(db, principal, { workflow: 2 }, firstPage),
  findVisibleTransition: ({ db }) => repo.findVisibleTransition(db, principal, 8),
  transitionsOfWorkflows: ({ db }) => repo.transitionsOfWorkflows(db, [2, 3]),
  findTransitionBetween: ({ db }) => repo.findTransitionBetween(db, 2, 4, 5),
  insertTransitions: ({ db }) =>
    repo.insertTransitions(db, [{ workflow_id: 2, from_status_id: 4, to_status_id: 5, name: 'To Do → Done' }], at),
  updateTransitionRow: ({ db }) =>
    repo.updateTransitionRow(db, 8, { from_status_id: 4, to_status_id: 6, name: 'Skip' }, at),
  deleteTransitionRow: ({ db }) => repo.deleteTransitionRow(db, 8),
});
