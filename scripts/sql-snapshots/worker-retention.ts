import * as repo from '../../src/worker/retention.repository.ts';
import { snapshotsOf } from './record.ts';

export default snapshotsOf('worker/retention.repository.ts', repo, {
  deleteFinishedDeliveriesBefore: ({ db }) => repo.deleteFinishedDeliveriesBefore(db, '2026-10-22T09:00:00.000Z'),
  deleteUnreferencedEventsBefore: ({ db }) => repo.deleteUnreferencedEventsBefore(db, '2026-10-22T09:00:00.000Z'),
});
