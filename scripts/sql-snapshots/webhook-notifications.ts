import * as repo from '../../src/modules/webhooks/notifications.repository.ts';
import { snapshotsOf } from './record.ts';

const now = '2026-11-21T09:00:00.000Z';

export default snapshotsOf('modules/webhooks/notifications.repository.ts', repo, {
  disableEnabledEndpoint: ({ db }) => repo.disableEnabledEndpoint(db, 4, 'Disabled automatically.', now),
  endpointAudience: async ({ db }) => {
    await repo.endpointAudience(db, { organization_id: 1, created_by: 3, governed_by: 5, project_id: 2 });
    return repo.endpointAudience(db, { organization_id: 1, created_by: 3, governed_by: 5, project_id: null });
  },
  recentNotifications: ({ db }) => repo.recentNotifications(db, { org: 'acme', limit: 50 }),
});
