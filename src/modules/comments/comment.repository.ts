import type { Executor } from '../../db/database.ts';
import type { Principal } from '../auth/principal.ts';
import { visibleTasks } from '../tasks/task.repository.ts';

/** A task's comments with their task key and author, for pages and single reads. */
function selectComments(db: Executor) {
  return db
    .selectFrom('comments as c')
    .innerJoin('tasks as t', 't.id', 'c.task_id')
    .leftJoin('users as u', 'u.id', 'c.author_id')
    .select(['c.id', 't.key as task_key', 'c.author_id', 'u.name as author_name', 'c.body', 'c.created_at', 'c.updated_at', 'c.edited_at']);
}

export type CommentRow = NonNullable<Awaited<ReturnType<typeof findComment>>>;

export const commentsOfTask = (db: Executor, taskId: number) => selectComments(db).where('c.task_id', '=', taskId);

export function findComment(db: Executor, id: number) {
  return selectComments(db).where('c.id', '=', id).executeTakeFirst();
}

/** The comment if its task is in a project the caller sees, with the caller's role there. */
export function findVisibleComment(db: Executor, principal: Principal, id: number) {
  return visibleTasks(db, principal)
    .innerJoin('comments as c', 'c.task_id', 't.id')
    .select(['c.id', 'c.author_id', 'c.body', 'p.id as project_id', 'pm.role'])
    .where('c.id', '=', id)
    .executeTakeFirst();
}

export async function insertComment(db: Executor, values: { task_id: number; author_id: number; body: string; at: string }): Promise<number> {
  const { at, ...rest } = values;
  const row = await db
    .insertInto('comments')
    .values({ ...rest, created_at: at, updated_at: at, edited_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateCommentBody(db: Executor, id: number, body: string, at: string): Promise<void> {
  await db.updateTable('comments').set({ body, updated_at: at, edited_at: at }).where('id', '=', id).execute();
}

export async function deleteComment(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('comments').where('id', '=', id).execute();
}
