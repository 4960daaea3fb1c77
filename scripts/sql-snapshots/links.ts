import * as repo from '../../src/modules/links/links.repository.ts';
import { snapshotsOf } from './record.ts';
import { firstPage, principal } from './samples.ts';

const edge = { from_task_id: 42, to_task_id: 43, type: 'blocks' as const };

export default snapshotsOf('modules/links/links.repository.ts', repo, {
  findBlockingPath: ({ db }) => repo.findBlockingPath(db, 42, 43),
  lockLinkGraph: ({ db, dialect }) => repo.lockLinkGraph(db, dialect, 1),
  holdTasks: ({ db, dialect }) => repo.holdTasks(db, dialect, [42, 43]),
  linksPage: ({ db }) => repo.linksPage(db, principal, 42, firstPage),
  findVisibleLink: ({ db }) => repo.findVisibleLink(db, principal, 42, 7),
  findEquivalentLink: async ({ db }) => {
    await repo.findEquivalentLink(db, edge);
    await repo.findEquivalentLink(db, { ...edge, type: 'duplicates' });
  },
  linkEnds: ({ db }) => repo.linkEnds(db, [42, 43]),
  taskKeys: ({ db }) => repo.taskKeys(db, [42, 43, 44]),
  insertLink: ({ db }) => repo.insertLink(db, { ...edge, created_by: 3, created_at: '2026-11-21T09:00:00.000Z' }),
  deleteLink: ({ db }) => repo.deleteLink(db, 7),
});
