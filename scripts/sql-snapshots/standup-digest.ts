import * as repo from '../../src/modules/notifications/standup-digest.repository.ts';
import { snapshotsOf } from './record.ts';

const now = '2026-11-23T09:30:00.000Z';

export default snapshotsOf('modules/notifications/standup-digest.repository.ts', repo, {
  organizationSchedules: ({ db }) => repo.organizationSchedules(db),
  digestRecipients: ({ db }) => repo.digestRecipients(db, 1, '2026-11-23', 200),
  claimDigest: ({ db }) => repo.claimDigest(db, 3, '2026-11-23', now),
  previousDigestAt: ({ db }) => repo.previousDigestAt(db, 3, '2026-11-23'),
  tasksInFlight: ({ db }) => repo.tasksInFlight(db, 3, 20),
  followedActivity: ({ db }) => repo.followedActivity(db, 3, '2026-11-22T00:00:00.000Z', 500),
  currentBlockers: ({ db }) => repo.currentBlockers(db, 1, '2026-11-16', '2026-11-23'),
  memberProjectIds: ({ db }) => repo.memberProjectIds(db, 3),
});
