import * as repo from '../../src/modules/search/search.repository.ts';
import { snapshotsOf } from './record.ts';
import { principal } from './samples.ts';

const all = '{title description} : ("login" "bug"*) AND project_id : (10 OR 11)';
const titled = 'title : ("login" "bug"*) AND project_id : (10 OR 11)';
const filter = { project: 'PROJ', status: 'To Do', assignee: 3 };

export default snapshotsOf('modules/search/search.repository.ts', repo, {
  postgresMatches: async ({ db }) => {
    await repo.postgresMatches(db, principal, 'login & bug:*', 'login:A & bug:*A', {}).execute();
    await repo.postgresMatches(db, principal, 'login & bug:*', 'login:A & bug:*A', filter).execute();
  },
  countFtsMatches: async ({ db }) => {
    // Each count stops without a row on the recording database: the second is recorded on its own.
    await repo.countFtsMatches(db, all, {}).catch(() => undefined);
    await repo.countFtsMatches(db, all, filter);
  },
  ftsMatchSlice: ({ db }) => repo.ftsMatchSlice(db, titled, {}, 0, 20),
  rankedFtsMatches: ({ db }) => repo.rankedFtsMatches(db, all, titled, filter).execute(),
});
