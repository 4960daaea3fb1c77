import * as repo from '../../src/modules/views/views.repository.ts';
import type { Principal } from '../../src/identity/principal.ts';
import { snapshotsOf } from './record.ts';
import { firstPage } from './samples.ts';

const at = '2026-11-21T09:00:00.000000Z';
const principal = { userId: 3, organizationId: 1, projectRestriction: null } as Principal;

export default snapshotsOf('modules/views/views.repository.ts', repo, {
  visibleViewsPage: async ({ db }) => {
    await repo.visibleViewsPage(db, principal, undefined, firstPage);
    await repo.visibleViewsPage(db, principal, null, firstPage);
    await repo.visibleViewsPage(db, principal, 10, firstPage);
  },
  findVisibleView: ({ db }) => repo.findVisibleView(db, { ...principal, projectRestriction: [10] }, 7),
  insertView: ({ db }) =>
    repo.insertView(db, {
      organization_id: 1,
      created_by: 3,
      project_id: null,
      name: 'My work',
      query: 'assignee = me()',
      layout: 'list',
      group_by: null,
      columns: '["key","title"]',
      shared: 0,
      created_at: at,
      updated_at: at,
    }),
  updateView: ({ db }) => repo.updateView(db, 7, { name: 'Renamed', updated_at: at }),
  deleteView: ({ db }) => repo.deleteView(db, 7),
});
