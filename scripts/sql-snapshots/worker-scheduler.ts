import * as repo from '../../src/worker/scheduler.repository.ts';
import { snapshotsOf } from './record.ts';

const now = '2026-11-21T09:00:00.000Z';

export default snapshotsOf('worker/scheduler.repository.ts', repo, {
  tasksDueSoon: ({ db }) => repo.tasksDueSoon(db, { today: '2026-11-21', horizon: '2026-11-22' }, 200),
  tasksOverdue: ({ db }) => repo.tasksOverdue(db, '2026-11-21', 200),
  claimOverdueNotice: ({ db }) => repo.claimOverdueNotice(db, 42, '2026-11-20', now),
  stuckTasks: ({ db }) => repo.stuckTasks(db, '2026-11-18T09:00:00.000Z', 200),
  claimDueNotice: ({ db }) => repo.claimDueNotice(db, 42, '2026-11-21', now),
  claimEscalation: ({ db }) => repo.claimEscalation(db, 42, '2026-11-18T08:00:00.000Z', now),
});
