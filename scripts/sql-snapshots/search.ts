import * as repo from '../../src/modules/search/search.repository.ts';
import { snapshotsOf } from './record.ts';

const all = '{title description} : ("login" "bug"*) AND project_id : (10 OR 11)';
const titled = 'title : ("login" "bug"*) AND project_id : (10 OR 11)';
const filter = { status: 'To Do', assignee: 3 };
const scope = { projectIds: [10, 11] };

export default snapshotsOf('modules/search/search.repository.ts', repo, {
  gatherPostgresMatches: async ({ db }) => {
    for (const vector of ['search_vector', 'title_vector'] as const)
      await repo.gatherPostgresMatches(db, 'login & bug:*', scope, vector, 1000).catch(() => undefined);
    await repo.gatherPostgresMatches(db, 'login & bug:*', { ...scope, ...filter }, 'search_vector', 1000);
  },
  gatherStatement: ({ db }) => repo.gatherStatement(db, 'login & bug:*', scope, 'search_vector', 1000).execute(),
  walkPostgresMatches: async ({ db }) => {
    await repo.walkPostgresMatches(db, 'login & bug:*', scope, 'title_vector', [], 0, 20);
    await repo.walkPostgresMatches(db, 'login & bug:*', scope, 'search_vector', [5, 6], 0, 20);
    await repo.walkPostgresMatches(db, 'login & bug:*', scope, 'search_vector', 'titled', 20, 20);
  },
  windowPostgresMatches: ({ db }) => repo.windowPostgresMatches(db, 'login & bug:*', scope, 'described', 5000, 20),
  rankedGatheredMatches: ({ db }) => repo.rankedGatheredMatches(db, [5], [6]).execute(),
  rankedPostgresMatches: ({ db }) => repo.rankedPostgresMatches(db, 'login & bug:*', scope).execute(),
  countFtsMatches: async ({ db }) => {
    // Each count stops without a row on the recording database: the second is recorded on its own.
    await repo.countFtsMatches(db, all, {}, 1000).catch(() => undefined);
    await repo.countFtsMatches(db, all, filter, 1000);
  },
  allProjectIds: ({ db }) => repo.allProjectIds(db),
  ftsMatchSlice: ({ db }) => repo.ftsMatchSlice(db, titled, {}, 0, 20),
  ftsSliceStatement: ({ db }) => repo.ftsSliceStatement(db, all, filter, 0, 20).execute(),
  rankedFtsMatches: ({ db }) => repo.rankedFtsMatches(db, all, titled, filter).execute(),
  matchIndex: async ({ db, dialect }) => {
    const index = await repo.matchIndex(db, dialect, ['login', 'bug'], filter, [10, 11], 1000);
    await index.rankedPage({ mode: 'offset', limit: 20, offset: 40, ordering: '-created_at' }, async () => 0);
  },
});
