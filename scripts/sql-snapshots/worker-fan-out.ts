import * as repo from '../../src/worker/fan-out.repository.ts';
import { snapshotsOf } from './record.ts';

export default snapshotsOf('worker/fan-out.repository.ts', repo, {
  takeUnfannedEvents: ({ db, dialect }) => repo.takeUnfannedEvents(db, dialect, '2026-11-21T09:00:00.000Z', 200),
  enabledEndpointsOf: ({ db }) => repo.enabledEndpointsOf(db, [1, 2]),
  membershipsAmong: ({ db }) => repo.membershipsAmong(db, [3, 4], [10, 11]),
});
