import type { Executor } from '../../db/database.ts';
import { insertWithTimestamps } from '../../db/insert-with-timestamps.ts';
import type { Principal } from '../../identity/principal.ts';
import { recordsOfTaskQueries } from '../tasks/records-of-task.repository.ts';
import { visibleTasks } from '../tasks/task.repository.ts';

/** A task's comments with their task key and author, for pages and single reads. */
function selectComments(db: Executor) {
  return db
    .selectFrom('comments as c')
    .innerJoin('tasks as t', 't.id', 'c.task_id')
    .leftJoin('users as u', 'u.id', 'c.author_id')
    .select([
      'c.id',
      't.key as task_key',
      'c.author_id',
      'u.name as author_name',
      'c.body',
      'c.created_at',
      'c.updated_at',
      'c.edited_at',
    ]);
}

/** With the caller's role in the task's project (whether it may edit or delete the comment) and the task, for its events. */
function visibleComments(db: Executor, principal: Principal) {
  return visibleTasks(db, principal)
    .innerJoin('comments as c', 'c.task_id', 't.id')
    .select([
      'c.id',
      'c.author_id',
      'c.body',
      'p.id as project_id',
      'pm.role',
      't.key as task_key',
      't.title as task_title',
    ]);
}

/** The orderings of a page of a task's records. */
const PAGING = { idColumn: 'c.id', orderable: { created_at: 'c.created_at' }, defaultOrdering: 'created_at' };

export const {
  ofTask: commentsOfTask,
  find: findComment,
  findVisible: findVisibleComment,
} = recordsOfTaskQueries('c', selectComments, visibleComments, PAGING);

export type CommentRow = NonNullable<Awaited<ReturnType<typeof findComment>>>;

export function insertComment(
  db: Executor,
  { at, ...values }: { task_id: number; author_id: number; body: string; at: string },
): Promise<number> {
  return insertWithTimestamps(db, 'comments', { ...values, edited_at: null }, at);
}

export async function updateCommentBody(db: Executor, id: number, body: string, at: string): Promise<void> {
  await db.updateTable('comments').set({ body, updated_at: at, edited_at: at }).where('id', '=', id).execute();
}

/** Whether this call deleted it (a concurrent delete may have been first). */
export async function deleteComment(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('comments').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
