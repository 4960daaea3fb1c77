import * as repo from '../../src/modules/comments/comment.repository.ts';
import { snapshotsOf } from './record.ts';
import { principal, firstPage } from './samples.ts';

export default snapshotsOf('modules/comments/comment.repository.ts', repo, {
  commentsOfTask: ({ db }) => repo.commentsOfTask(db, 42, firstPage),
  findComment: ({ db }) => repo.findComment(db, 7),
  findVisibleComment: ({ db }) => repo.findVisibleComment(db, principal, 7),
  insertComment: ({ db }) =>
    repo.insertComment(db, { task_id: 42, author_id: 3, body: 'Looks good', at: '2026-11-21T09:00:00.000Z' }),
  updateCommentBody: ({ db }) => repo.updateCommentBody(db, 7, 'Edited', '2026-11-21T09:00:00.000Z'),
  deleteComment: ({ db }) => repo.deleteComment(db, 7),
});
