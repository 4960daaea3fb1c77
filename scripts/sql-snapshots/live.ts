import * as repo from '../../src/modules/live/live.repository.ts';
import { snapshotsOf } from './record.ts';

export default snapshotsOf('modules/live/live.repository.ts', repo, {
  largestLiveEventId: ({ db }) => repo.largestLiveEventId(db),
  currentPosition: ({ db, dialect }) => repo.currentPosition(db, dialect),
  isKnownPosition: async ({ db }) => {
    await repo.isKnownPosition(db, { tx: 0, id: 99 });
    await repo.isKnownPosition(db, { tx: 0, id: 0 });
  },
  readLiveEvents: ({ db, dialect }) => repo.readLiveEvents(db, dialect, { tx: 0, id: 99 }, 200),
});
