import * as repo from '../../src/modules/webhooks/delivery/delivery-queue.repository.ts';
import { snapshotsOf } from './record.ts';

const now = '2026-11-21T09:00:00.000Z';

export default snapshotsOf('modules/webhooks/delivery/delivery-queue.repository.ts', repo, {
  leaseDueDeliveries: ({ db, dialect }) =>
    repo.leaseDueDeliveries(db, dialect, {
      now,
      lockedUntil: '2026-11-21T09:01:00.000Z',
      leaseToken: 'lease-1',
      limit: 50,
      skipEndpoints: [4],
    }),
  markUnfinishedAttemptsLost: ({ db }) => repo.markUnfinishedAttemptsLost(db, [7, 8], now, 'lost'),
  insertAttempts: ({ db }) =>
    repo.insertAttempts(
      db,
      [
        { deliveryId: 7, number: 1 },
        { deliveryId: 8, number: 3 },
      ],
      now,
    ),
  endpointTargets: ({ db }) => repo.endpointTargets(db, [4, 5]),
  outboxEnvelopes: ({ db }) => repo.outboxEnvelopes(db, [9]),
  finishAttempt: ({ db }) => repo.finishAttempt(db, 21, { status: 200, error: null, body: 'ok', durationMs: 12 }, now),
  rescheduleLeasedDelivery: ({ db }) =>
    repo.rescheduleLeasedDelivery(db, {
      id: 7,
      leaseToken: 'lease-1',
      attempts: 2,
      nextAttemptAt: '2026-11-21T09:05:00.000Z',
      responseStatus: 503,
      error: 'HTTP 503',
    }),
  markLeasedDelivered: ({ db }) =>
    repo.markLeasedDelivered(db, { ids: [7, 8], leaseToken: 'lease-1', attempts: 1, responseStatus: 200 }, now),
  resetFailureCounts: ({ db }) => repo.resetFailureCounts(db, [4]),
  countAbandonedDelivery: ({ db }) => repo.countAbandonedDelivery(db, 4),
});
