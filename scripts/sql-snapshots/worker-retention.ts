import * as repo from '../../src/worker/retention.repository.ts';
import { snapshotsOf } from './record.ts';

export default snapshotsOf('worker/retention.repository.ts', repo, {
  deleteFinishedDeliveriesBefore: ({ db }) => repo.deleteFinishedDeliveriesBefore(db, '2026-10-22T09:00:00.000Z'),
  deleteUnreferencedEventsBefore: ({ db }) => repo.deleteUnreferencedEventsBefore(db, '2026-10-22T09:00:00.000Z'),
  deletePendingDeliveriesOfEndpointsDisabledBefore: ({ db }) =>
    repo.deletePendingDeliveriesOfEndpointsDisabledBefore(db, '2026-10-22T09:00:00.000Z'),
  deleteSupersededChangesBefore: ({ db }) =>
    repo.deleteSupersededChangesBefore(db, '2026-08-23T09:00:00.000000Z', 2000),
  deleteDeletionRecordsBefore: ({ db }) => repo.deleteDeletionRecordsBefore(db, '2026-08-23T09:00:00.000000Z', 2000),
  hasDeletionRecordsBefore: ({ db }) => repo.hasDeletionRecordsBefore(db, '2026-08-23T09:00:00.000000Z'),
  advanceHorizon: ({ db }) => repo.advanceHorizon(db, 'task_changes', '2026-08-23T09:00:00.000000Z'),
  markLiveEvents: ({ db }) => repo.markLiveEvents(db, '2026-11-21T09:00:00.000000Z'),
  liveEventsMarkedBefore: ({ db }) => repo.liveEventsMarkedBefore(db, '2026-11-20T09:00:00.000000Z'),
  deleteLiveEventsThrough: ({ db }) => repo.deleteLiveEventsThrough(db, 1041, 2000),
  deleteLiveEventMarksThrough: ({ db }) => repo.deleteLiveEventMarksThrough(db, 1041),
});
