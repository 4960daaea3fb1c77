import type { Executor } from '../../db/database.ts';
import { paginate } from '../../db/paginate.ts';
import type { PageRequest } from '../../http/pagination.ts';

/** Adds the follower unless it already follows (idempotent). */
export async function insertFollower(db: Executor, taskId: number, userId: number, at: string): Promise<void> {
  await db
    .insertInto('task_followers')
    .values({ task_id: taskId, user_id: userId, created_at: at })
    .onConflict((oc) => oc.columns(['task_id', 'user_id']).doNothing())
    .execute();
}

export function findFollowing(db: Executor, taskId: number, userId: number) {
  return db
    .selectFrom('task_followers')
    .select('created_at')
    .where('task_id', '=', taskId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function deleteFollower(db: Executor, taskId: number, userId: number): Promise<void> {
  await db.deleteFrom('task_followers').where('task_id', '=', taskId).where('user_id', '=', userId).execute();
}

/** Records that the person does not want to follow the task, even as its assignee or creator. */
export async function insertUnfollow(db: Executor, taskId: number, userId: number, at: string): Promise<void> {
  await db
    .insertInto('task_unfollows')
    .values({ task_id: taskId, user_id: userId, created_at: at })
    .onConflict((oc) => oc.columns(['task_id', 'user_id']).doNothing())
    .execute();
}

export async function deleteUnfollow(db: Executor, taskId: number, userId: number): Promise<void> {
  await db.deleteFrom('task_unfollows').where('task_id', '=', taskId).where('user_id', '=', userId).execute();
}

/** One page of a task's followers with their accounts. */
export function followersPage(db: Executor, taskId: number, page: PageRequest) {
  const query = db
    .selectFrom('task_followers as f')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select(['f.id', 'u.id as user', 'u.name', 'u.kind', 'f.created_at as followed_at'])
    .where('f.task_id', '=', taskId);
  return paginate(query, page, {
    idColumn: 'f.id',
    orderable: { followed_at: 'f.created_at' },
    defaultOrdering: 'followed_at',
  });
}
