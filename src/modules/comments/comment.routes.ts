import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { listOf, ok } from '../../http/envelope.ts';
import { commitNoContent } from '../../http/no-content.ts';
import { pageRequest } from '../../http/pagination.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import { Envelope, errorResponses, IdParams, ListEnvelope } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { callerOf } from '../tasks/task.http.ts';
import { UserRef } from '../accounts/user.schemas.ts';
import { TaskKeyParams } from '../tasks/task.schemas.ts';
import { Comment, CommentBody, type CommentJson, CommentListQuery } from './comment.schemas.ts';
import * as comments from './comment.service.ts';

export const commentModels = [UserRef, Comment];

export function registerCommentRoutes(app: Api, ctx: AppContext): void {
  const tags = ['Comments'];
  const one = Envelope(Type.Ref(Comment));
  const read = { scope: 'tasks:read' } as const;
  const write = { scope: 'tasks:write' } as const;

  app.get(
    '/api/v1/tasks/:task_key/comments/',
    {
      schema: {
        tags,
        summary: "A task's comments (oldest first by default)",
        params: TaskKeyParams,
        querystring: CommentListQuery,
        response: { 200: ListEnvelope(Type.Ref(Comment)), ...errorResponses(404) },
      },
      config: read,
    },
    async (request) =>
      listOf(
        await comments.listComments(ctx, principalOf(request), request.params.task_key, pageRequest(request.query)),
      ),
  );

  app.post(
    '/api/v1/tasks/:task_key/comments/',
    {
      schema: {
        tags,
        summary: "Comment on a task (as the token's account)",
        description:
          'The body is markdown, stored and returned exactly as sent. Emits `comment.created` with `data: {comment, task: {key, title}}` and adds a `commented` activity entry. Project viewers cannot comment (403).',
        params: TaskKeyParams,
        body: CommentBody,
        response: { 201: one, ...errorResponses(404) },
      },
      config: write,
    },
    async (request, reply) => {
      const caller = callerOf(request);
      reply.code(201);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => comments.createComment(tx, caller, request.params.task_key, request.body.body),
        ok<CommentJson>,
      );
    },
  );

  app.get(
    '/api/v1/comments/:id/',
    {
      schema: { tags, summary: 'Read a comment', params: IdParams, response: { 200: one, ...errorResponses(404) } },
      config: read,
    },
    async (request) => ok(await comments.getComment(ctx, principalOf(request), request.params.id)),
  );

  app.put(
    '/api/v1/comments/:id/',
    {
      schema: {
        tags,
        summary: 'Edit a comment (its author only)',
        description:
          'Only the author may edit, project admins included (403 FORBIDDEN otherwise). `edited` becomes true when the body changes; sending the current body changes nothing.',
        params: IdParams,
        body: CommentBody,
        response: { 200: one, ...errorResponses(404) },
      },
      config: write,
    },
    async (request, reply) =>
      commitWrite(
        ctx,
        request,
        reply,
        (tx) => comments.updateComment(tx, callerOf(request), request.params.id, request.body.body),
        ok<CommentJson>,
      ),
  );

  app.delete(
    '/api/v1/comments/:id/',
    {
      schema: {
        tags,
        summary: 'Delete a comment (its author, or a project admin)',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404) },
      },
      config: write,
    },
    async (request, reply) =>
      commitNoContent(ctx, reply, (tx) => comments.deleteComment(tx, callerOf(request), request.params.id)),
  );
}
