import * as repo from '../../src/modules/webhooks/webhooks.repository.ts';
import { snapshotsOf } from './record.ts';
import { principal, firstPage } from './samples.ts';

const delivery = {
  endpoint_id: 4,
  organization_id: 1,
  outbox_id: 9,
  event_id: 'evt_1',
  event_type: 'task.created',
  is_test: 0,
  replay_of: null,
  now: '2026-11-21T09:00:00.000Z',
};

export default snapshotsOf('modules/webhooks/webhooks.repository.ts', repo, {
  findVisibleEndpoint: ({ db }) => repo.findVisibleEndpoint(db, principal, 4),
  endpointsPage: ({ db }) => repo.endpointsPage(db, principal, firstPage),
  insertEndpoint: ({ db }) =>
    repo.insertEndpoint(db, {
      organization_id: 1,
      created_by: 3,
      governed_by: 3,
      project_id: 10,
      url: 'https://hooks.example.test/in',
      description: '',
      events: '["task.created"]',
      secret_ciphertext: 'v1.iv.tag.ct',
      enabled: 1,
      disabled_reason: null,
      consecutive_failures: 0,
      created_at: '2026-11-21T09:00:00.000Z',
      updated_at: '2026-11-21T09:00:00.000Z',
    }),
  updateEndpoint: ({ db }) =>
    repo.updateEndpoint(db, 4, {
      enabled: 1,
      disabled_reason: null,
      consecutive_failures: 0,
      updated_at: '2026-11-21T09:00:00.000Z',
    }),
  deleteEndpoint: ({ db }) => repo.deleteEndpoint(db, 4),
  findVisibleEndpointSecret: ({ db }) => repo.findVisibleEndpointSecret(db, principal, 4),
  findVisibleDelivery: ({ db }) => repo.findVisibleDelivery(db, principal, 7),
  deliveriesPage: ({ db }) => repo.deliveriesPage(db, principal, { endpoint: 4, status: 'failed' }, firstPage),
  attemptsOfDelivery: ({ db }) => repo.attemptsOfDelivery(db, 7),
  markEventFannedOut: ({ db }) => repo.markEventFannedOut(db, 'evt_1', '2026-11-21T09:00:00.000Z'),
  insertDelivery: ({ db }) => repo.insertDelivery(db, delivery),
  insertDeliveries: ({ db }) => repo.insertDeliveries(db, [delivery, { ...delivery, endpoint_id: 5 }]),
});
