import type { Executor } from '../../db/database.ts';

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

/** A task's followers with their accounts, for one page (see paginate). */
export function followersOfTask(db: Executor, taskId: number) {
  return db
    .selectFrom('task_followers as f')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select(['f.id', 'u.id as user', 'u.name', 'u.kind', 'f.created_at as followed_at'])
    .where('f.task_id', '=', taskId);
}
