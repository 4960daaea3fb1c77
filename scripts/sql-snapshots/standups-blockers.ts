import * as repo from '../../src/modules/standups/blockers.repository.ts';
import { snapshotsOf } from './record.ts';
import { firstPage, principal } from './samples.ts';

export default snapshotsOf('modules/standups/blockers.repository.ts', repo, {
  teamBlockersPage: ({ db }) => repo.teamBlockersPage(db, principal, '2026-11-21', firstPage),
});
