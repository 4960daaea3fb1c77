import type { Tx } from '../../db/unit-of-work.ts';
import { recordEvent } from '../../events/record-event.ts';
import { recordActivities } from '../activity/activity.repository.ts';
import { authorize } from '../../policy/index.ts';
import { recordsOfTask } from '../tasks/records-of-task.ts';
import type { Caller } from '../../identity/caller.ts';
import { lockExistingTask, writableTask } from '../tasks/task.service.ts';
import * as repo from './comment.repository.ts';
import type { CommentJson } from './comment.schemas.ts';

/**
 * Comments on a task. Anyone who can write in the project may comment; only the author edits
 * (an edit puts words in someone's mouth, so not even admins may); the author or a project admin
 * deletes (moderation). Posting writes comment.created and a `commented` activity row in the
 * comment's own transaction.
 */
function present(row: repo.CommentRow): CommentJson {
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

const QUERIES = { ofTask: repo.commentsOfTask, find: repo.findComment, findVisible: repo.findVisibleComment };
const records = recordsOfTask('Comment', QUERIES, present);

export const listComments = records.list;
export const getComment = records.get;

export async function createComment(tx: Tx, caller: Caller, taskKey: string, body: string): Promise<CommentJson> {
  const task = await writableTask(tx, caller.principal, taskKey);
  const { title } = await lockExistingTask(tx, task.id);
  const now = tx.clock.nowIso();
  const id = await repo.insertComment(tx.db, { task_id: task.id, author_id: caller.principal.userId, body, at: now });
  const comment = await records.load(tx.db, id);
  await recordActivities(tx.db, [
    {
      task_id: task.id,
      actor_id: caller.principal.userId,
      action: 'commented',
      field: null,
      from_value: null,
      to_value: JSON.stringify(id),
      created_at: now,
    },
  ]);
  await recordEvent(tx.db, {
    type: 'comment.created',
    origin: caller.origin,
    projectId: task.project.id,
    occurredAt: now,
    data: { comment, task: { key: task.key, title } },
  });
  return comment;
}

export async function updateComment(tx: Tx, caller: Caller, id: number, body: string): Promise<CommentJson> {
  const { principal } = caller;
  const found = await records.visible(tx, principal, id);
  authorize(
    principal,
    'item.edit',
    { kind: 'item', project: { id: found.project_id, role: found.role }, authorId: found.author_id },
    'the comment',
  );
  // The same text again is not an edit: nothing changes, `edited` stays as it was.
  if (found.body === body) return records.load(tx.db, id);
  const now = tx.clock.nowIso();
  await repo.updateCommentBody(tx.db, id, body, now);
  const comment = await records.load(tx.db, id);
  await recordEvent(tx.db, {
    type: 'comment.updated',
    origin: caller.origin,
    projectId: found.project_id,
    occurredAt: now,
    data: { comment, task: { key: found.task_key, title: found.task_title } },
  });
  return comment;
}

export async function deleteComment(tx: Tx, caller: Caller, id: number): Promise<void> {
  const { principal } = caller;
  const found = await records.visible(tx, principal, id);
  authorize(
    principal,
    'item.delete',
    { kind: 'item', project: { id: found.project_id, role: found.role }, authorId: found.author_id },
    'the comment',
  );
  // A concurrent delete won the race: the comment is gone either way, but only one request reports it.
  if (!(await repo.deleteComment(tx.db, id))) return;
  await recordEvent(tx.db, {
    type: 'comment.deleted',
    origin: caller.origin,
    projectId: found.project_id,
    occurredAt: tx.clock.nowIso(),
    data: { comment: { id, author: found.author_id }, task: { key: found.task_key, title: found.task_title } },
  });
}
