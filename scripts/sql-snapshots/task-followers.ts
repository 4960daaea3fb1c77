import * as repo from '../../src/modules/tasks/task-followers.repository.ts';
import { snapshotsOf } from './record.ts';
import { firstPage } from './samples.ts';

export default snapshotsOf('modules/tasks/task-followers.repository.ts', repo, {
  insertFollower: ({ db }) => repo.insertFollower(db, 42, 3, '2026-11-21T09:00:00.000000Z'),
  findFollowing: ({ db }) => repo.findFollowing(db, 42, 3),
  deleteFollower: ({ db }) => repo.deleteFollower(db, 42, 3),
  insertUnfollow: ({ db }) => repo.insertUnfollow(db, 42, 3, '2026-11-21T09:00:00.000000Z'),
  deleteUnfollow: ({ db }) => repo.deleteUnfollow(db, 42, 3),
  followersPage: ({ db }) => repo.followersPage(db, 42, firstPage),
});
