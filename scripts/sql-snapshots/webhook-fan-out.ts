import * as repo from '../../src/modules/webhooks/delivery/fan-out.repository.ts';
import { snapshotsOf } from './record.ts';

export default snapshotsOf('modules/webhooks/delivery/fan-out.repository.ts', repo, {
  takeUnfannedEvents: ({ db, dialect }) => repo.takeUnfannedEvents(db, dialect, '2026-11-21T09:00:00.000Z', 200),
  takeUnfannedStatement: ({ db, dialect }) =>
    repo.takeUnfannedStatement(db, dialect, '2026-11-21T09:00:00.000Z', 200).execute(),
  enabledEndpointsOf: ({ db }) => repo.enabledEndpointsOf(db, [1, 2]),
  membershipsAmong: ({ db }) => repo.membershipsAmong(db, [3, 4], [10, 11]),
  projectsOfAccounts: ({ db }) => repo.projectsOfAccounts(db, [3, 4]),
  envelopesOf: ({ db }) => repo.envelopesOf(db, [5, 6]),
});
