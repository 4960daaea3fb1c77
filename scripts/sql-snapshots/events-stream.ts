import * as repo from '../../src/modules/events/events-stream.repository.ts';
import { snapshotsOf } from './record.ts';

export default snapshotsOf('modules/events/events-stream.repository.ts', repo, {
  positionOfEvent: ({ db }) => repo.positionOfEvent(db, 1, 'evt_0123456789abcdef0123456789abcdef'),
  startOfStream: ({ db, dialect }) => repo.startOfStream(db, dialect, 1),
  largestEventId: ({ db }) => repo.largestEventId(db),
  readEventsAfter: ({ db, dialect }) => repo.readEventsAfter(db, dialect, { tx: 0, id: 99 }, 200),
});
