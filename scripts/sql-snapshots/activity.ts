import * as repo from '../../src/modules/activity/activity.repository.ts';
import { snapshotsOf } from './record.ts';

export default snapshotsOf('modules/activity/activity.repository.ts', repo, {
  activitiesInsert: ({ db }) =>
    repo
      .activitiesInsert(db, [
        {
          task_id: 42,
          actor_id: 3,
          action: 'created',
          field: null,
          from_value: null,
          to_value: null,
          created_at: '2026-11-21T09:00:00.000Z',
        },
      ])
      .execute(),
  recordActivities: ({ db }) =>
    repo.recordActivities(db, [
      {
        task_id: 42,
        actor_id: 3,
        action: 'commented',
        field: null,
        from_value: null,
        to_value: '7',
        created_at: '2026-11-21T09:00:00.000Z',
      },
    ]),
});
