import * as repo from '../../src/events/outbox.repository.ts';
import { snapshotsOf } from './record.ts';

export default snapshotsOf('events/outbox.repository.ts', repo, {
  outboxInsert: ({ db }) =>
    repo
      .outboxInsert(db, [
        {
          event_id: 'evt_1',
          type: 'task.updated',
          organization_id: 1,
          project_id: 10,
          actor_id: 3,
          correlation_id: 'req-1',
          envelope: '{}',
          occurred_at: '2026-11-21T09:00:00.000Z',
          fanned_out_at: null,
        },
        {
          event_id: 'evt_2',
          type: 'task.assigned',
          organization_id: 1,
          project_id: 10,
          actor_id: 3,
          correlation_id: 'req-1',
          envelope: '{}',
          occurred_at: '2026-11-21T09:00:00.000Z',
          fanned_out_at: null,
        },
      ])
      .execute(),
  insertOutboxEvent: ({ db }) =>
    repo.insertOutboxEvent(db, {
      event_id: 'evt_1',
      type: 'task.created',
      organization_id: 1,
      project_id: 10,
      actor_id: 3,
      correlation_id: 'req-1',
      envelope: '{}',
      occurred_at: '2026-11-21T09:00:00.000Z',
      fanned_out_at: null,
    }),
});
