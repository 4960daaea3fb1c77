import * as repo from '../../src/modules/workflows/statuses.repository.ts';
import { snapshotsOf } from './record.ts';
import { principal, firstPage } from './samples.ts';

const at = '2026-11-21T09:00:00.000Z';

export default snapshotsOf('modules/workflows/statuses.repository.ts', repo, {
  statusesPage: ({ db }) => repo.statusesPage(db, principal, { project: 10, category: 'done' }, firstPage),
  findVisibleStatus: ({ db }) => repo.findVisibleStatus(db, principal, 4),
  statusesInBoardOrder: ({ db }) => repo.statusesInBoardOrder(db, principal, 10),
  statusNames: ({ db }) => repo.statusNames(db, 10, [4, 5]),
  insertStatus: ({ db }) =>
    repo.insertStatus(db, { project_id: 10, name: 'Blocked', category: 'in_progress', position: 4, at }),
  updateStatusFields: ({ db }) => repo.updateStatusFields(db, 4, { name: 'Shipped' }, at),
  recordStatusRename: ({ db }) =>
    repo.recordStatusRename(db, { status_id: 4, from_name: 'Done', to_name: 'Shipped', renamed_at: at }),
  countTasksInStatus: ({ db }) => repo.countTasksInStatus(db, 4),
  defaultStatusOf: ({ db }) => repo.defaultStatusOf(db, 10),
  deleteStatusWithTransitions: ({ db }) => repo.deleteStatusWithTransitions(db, 4),
  writeStatusPositions: ({ db }) =>
    repo.writeStatusPositions(
      db,
      [5, 4],
      new Map([
        [4, 0],
        [5, 1],
      ]),
      at,
    ),
  statusPositions: ({ db }) => repo.statusPositions(db, 10),
});
