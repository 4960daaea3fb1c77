import * as repo from '../../src/modules/search/search.repository.ts';
import { snapshotsOf } from './record.ts';

const all = '{title description} : ("login" "bug"*) AND project_id : (10 OR 11)';
const titled = 'title : ("login" "bug"*) AND project_id : (10 OR 11)';
const filter = { status: 'To Do', assignee: 3 };
const scope = { projectIds: [10, 11] };

export default snapshotsOf('modules/search/search.repository.ts', repo, {
  countPostgresMatches: async ({ db }) => {
    for (const tier of ['all', 'titled', 'described'] as const)
      await repo.countPostgresMatches(db, 'login & bug:*', scope, tier, 1000).catch(() => undefined);
    await repo.countPostgresMatches(db, 'login & bug:*', { ...scope, status: 'To Do', assignee: 3 }, 'all', 1000);
  },
  postgresMatchSlice: ({ db }) => repo.postgresMatchSlice(db, 'login & bug:*', scope, 'described', 0, 20),
  rankedPostgresMatches: ({ db }) => repo.rankedPostgresMatches(db, 'login & bug:*', scope).execute(),
  countFtsMatches: async ({ db }) => {
    // Each count stops without a row on the recording database: the second is recorded on its own.
    await repo.countFtsMatches(db, all, {}, 1000).catch(() => undefined);
    await repo.countFtsMatches(db, all, filter, 1000);
  },
  allProjectIds: ({ db }) => repo.allProjectIds(db),
  ftsMatchSlice: ({ db }) => repo.ftsMatchSlice(db, titled, {}, 0, 20),
  rankedFtsMatches: ({ db }) => repo.rankedFtsMatches(db, all, titled, filter).execute(),
});
