import type { AppContext } from '../../context.ts';
import { type BeforeCommit, transactionWith } from '../../db/before-commit.ts';
import type { Executor } from '../../db/database.ts';
import { recordEvent } from '../../events/record-event.ts';
import { notFound } from '../../http/errors.ts';
import { type PageRequest, paginate } from '../../http/pagination.ts';
import type { Principal } from '../auth/principal.ts';
import { authorize, visibleProjects } from '../../policy/index.ts';
import { lockExistingTask } from '../tasks/task.repository.ts';
import { type Caller, visibleTask, writableTask } from '../tasks/task.service.ts';
import type { CommentJson } from './comment.schemas.ts';

/**
 * Comments on a task. Anyone who can write in the project may comment; only the author edits
 * (an edit puts words in someone's mouth, so not even admins may); the author or a project admin
 * deletes (moderation). Posting writes comment.created and a `commented` activity row in the
 * comment's own transaction.
 */
function selectComments(db: Executor) {
  return db
    .selectFrom('comments as c')
    .innerJoin('tasks as t', 't.id', 'c.task_id')
    .leftJoin('users as u', 'u.id', 'c.author_id')
    .select(['c.id', 't.key as task_key', 'c.author_id', 'u.name as author_name', 'c.body', 'c.created_at', 'c.updated_at', 'c.edited_at']);
}

type CommentRow = Awaited<ReturnType<ReturnType<typeof selectComments>['executeTakeFirstOrThrow']>>;

function present(row: CommentRow): CommentJson {
  return {
    id: row.id,
    task: row.task_key,
    author: row.author_id === null ? null : { id: row.author_id, name: row.author_name ?? '' },
    body: row.body,
    created_at: row.created_at,
    updated_at: row.updated_at,
    edited: row.edited_at !== null,
  };
}

async function loadComment(db: Executor, id: number): Promise<CommentJson> {
  const row = await selectComments(db).where('c.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Comment');
  return present(row);
}

/** The comment if its task is visible to the caller, with the caller's project role (404 otherwise). */
async function visibleComment(ctx: AppContext, principal: Principal, id: number) {
  const found = await visibleProjects(ctx.db, principal)
    .innerJoin('tasks as t', 't.project_id', 'p.id')
    .innerJoin('comments as c', 'c.task_id', 't.id')
    .select(['c.id', 'c.author_id', 'c.body', 'p.id as project_id', 'pm.role'])
    .where('c.id', '=', id)
    .executeTakeFirst();
  if (!found) throw notFound('Comment');
  return found;
}

export async function listComments(ctx: AppContext, principal: Principal, taskKey: string, page: PageRequest) {
  const task = await visibleTask(ctx, principal, taskKey);
  const { rows, pagination } = await paginate(selectComments(ctx.db).where('c.task_id', '=', task.id), page, {
    idColumn: 'c.id',
    orderable: { created_at: 'c.created_at' },
    defaultOrdering: 'created_at',
  });
  return { data: rows.map(present), pagination };
}

export async function getComment(ctx: AppContext, principal: Principal, id: number): Promise<CommentJson> {
  await visibleComment(ctx, principal, id);
  return loadComment(ctx.db, id);
}

export async function createComment(ctx: AppContext, caller: Caller, taskKey: string, body: string, beforeCommit?: BeforeCommit<CommentJson>): Promise<CommentJson> {
  const task = await writableTask(ctx, caller.principal, taskKey);
  return transactionWith(ctx.db, async (trx) => {
    const { title } = await lockExistingTask(trx, ctx, task.id);
    const now = ctx.clock.nowIso();
    const { id } = await trx
      .insertInto('comments')
      .values({ task_id: task.id, author_id: caller.principal.userId, body, created_at: now, updated_at: now, edited_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const comment = await loadComment(trx, id);
    await trx
      .insertInto('activities')
      .values({ task_id: task.id, actor_id: caller.principal.userId, action: 'commented', field: null, from_value: null, to_value: JSON.stringify(id), created_at: now })
      .execute();
    await recordEvent(trx, {
      type: 'comment.created',
      origin: caller.origin,
      projectId: task.project.id,
      occurredAt: now,
      data: { comment, task: { key: task.key, title } },
    });
    return comment;
  }, beforeCommit);
}

export async function updateComment(ctx: AppContext, principal: Principal, id: number, body: string): Promise<CommentJson> {
  const found = await visibleComment(ctx, principal, id);
  authorize(principal, 'item.edit', { kind: 'item', project: { id: found.project_id, role: found.role }, authorId: found.author_id }, 'the comment');
  // The same text again is not an edit: nothing changes, `edited` stays as it was.
  if (found.body !== body) {
    const now = ctx.clock.nowIso();
    await ctx.db.updateTable('comments').set({ body, updated_at: now, edited_at: now }).where('id', '=', id).execute();
  }
  return loadComment(ctx.db, id);
}

export async function deleteComment(ctx: AppContext, principal: Principal, id: number): Promise<void> {
  const found = await visibleComment(ctx, principal, id);
  authorize(principal, 'item.delete', { kind: 'item', project: { id: found.project_id, role: found.role }, authorId: found.author_id }, 'the comment');
  await ctx.db.deleteFrom('comments').where('id', '=', id).execute();
}
