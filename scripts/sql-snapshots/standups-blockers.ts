import * as repo from '../../src/modules/standups/blockers.repository.ts';
import { snapshotsOf } from './record.ts';
import { principal } from './samples.ts';

export default snapshotsOf('modules/standups/blockers.repository.ts', repo, {
  teamBlockers: ({ db }) => repo.teamBlockers(db, principal, '2026-11-21').execute(),
});
