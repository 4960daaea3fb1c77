import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import * as repo from './task-followers.repository.ts';
import type { FollowStateJson } from './task.schemas.ts';
import { visibleTask } from './task.service.ts';

/**
 * Following is the token's account subscribing itself; it changes nothing on the task, so
 * project viewers may follow too (like watching an issue you can read).
 */
export async function follow(tx: Tx, principal: Principal, key: string): Promise<FollowStateJson> {
  const ref = await visibleTask(tx, principal, key);
  await repo.insertFollower(tx.db, ref.id, principal.userId, tx.clock.nowIso());
  await repo.deleteUnfollow(tx.db, ref.id, principal.userId);
  const row = await repo.findFollowing(tx.db, ref.id, principal.userId);
  return { task: ref.key, user: principal.userId, following: true, followed_at: row!.created_at };
}

/** Unfollowing holds for the assignee and the creator too, who follow by default, until they follow again. */
export async function unfollow(tx: Tx, principal: Principal, key: string): Promise<void> {
  const ref = await visibleTask(tx, principal, key);
  await repo.deleteFollower(tx.db, ref.id, principal.userId);
  await repo.insertUnfollow(tx.db, ref.id, principal.userId, tx.clock.nowIso());
}

export async function listFollowers(ctx: AppContext, principal: Principal, key: string, page: PageRequest) {
  const ref = await visibleTask(ctx, principal, key);
  const { rows, pagination } = await repo.followersPage(ctx.db, ref.id, page);
  return { data: rows.map(({ id: _id, ...follower }) => follower), pagination };
}
