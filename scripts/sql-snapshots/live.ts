import * as repo from '../../src/modules/live/live.repository.ts';
import { snapshotsOf } from './record.ts';
import { principal } from './samples.ts';

export default snapshotsOf('modules/live/live.repository.ts', repo, {
  largestLiveEventId: ({ db }) => repo.largestLiveEventId(db),
  currentPosition: ({ db, dialect }) => repo.currentPosition(db, dialect),
  readLiveEvents: ({ db, dialect }) => repo.readLiveEvents(db, dialect, principal, { tx: 0, id: 99 }, 200),
});
