import * as repo from '../../src/modules/webhooks/notifications.repository.ts';
import { snapshotsOf } from './record.ts';

const now = '2026-11-21T09:00:00.000Z';

export default snapshotsOf('modules/webhooks/notifications.repository.ts', repo, {
  disableEnabledEndpoint: ({ db }) => repo.disableEnabledEndpoint(db, 4, 'Disabled automatically.', now),
  endpointStewards: ({ db }) => repo.endpointStewards(db, 1, 3),
  markNotificationEmailed: ({ db }) => repo.markNotificationEmailed(db, 12, now),
  markNotificationEmailFailed: ({ db }) => repo.markNotificationEmailFailed(db, 12, 'connection refused'),
  recentNotifications: ({ db }) => repo.recentNotifications(db, { org: 'acme', limit: 50 }),
  notificationsOf: ({ db }) => repo.notificationsOf(db, 3, 200),
  findOwnNotification: ({ db }) => repo.findOwnNotification(db, 3, 12),
  markNotificationRead: ({ db }) => repo.markNotificationRead(db, 12, now),
});
