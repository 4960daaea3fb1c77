import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { listOf, ok } from '../../http/envelope.ts';
import { commitNoContent } from '../../http/no-content.ts';
import { pageRequest } from '../../http/pagination.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import { Envelope, errorResponses, ListEnvelope } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { callerOf } from '../tasks/task.http.ts';
import { TaskKeyParams } from '../tasks/task.schemas.ts';
import { LinkCreateBody, LinkListQuery, LinkParams, TaskLink, type TaskLinkJson } from './links.schemas.ts';
import * as links from './links.service.ts';

export const linkModels = [TaskLink];

export function registerLinkRoutes(app: Api, ctx: AppContext): void {
  const tags = ['Links'];

  app.post(
    '/api/v1/tasks/:task_key/link/',
    {
      schema: {
        tags,
        summary: 'Link the task to another task',
        description:
          'Each relationship is stored once: `A blocked_by B` is the same link as `B blocks A`, so creating a link that exists, or its mirror, is 409 DUPLICATE_LINK (`details.link_id`, `details.type`). ' +
          'A `blocks` link that would close a loop is 422 DEPENDENCY_CYCLE; `details.path` lists the loop as task keys, each blocking the next, starting and ending with this task. ' +
          'The other task may be in another project you can see (404 otherwise); a task cannot be linked to itself (400). Both tasks get a `linked` activity entry.',
        params: TaskKeyParams,
        body: LinkCreateBody,
        response: { 201: Envelope(Type.Ref(TaskLink)), ...errorResponses(404, 409, 422) },
      },
      config: { scope: 'tasks:write' },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      reply.code(201);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => links.createLink(tx, caller, request.params.task_key, request.body),
        ok<TaskLinkJson>,
      );
    },
  );

  app.get(
    '/api/v1/tasks/:task_key/links/',
    {
      schema: {
        tags,
        summary: "The task's links, each described from this task's side",
        description: 'Links whose other task is in a project you cannot see are left out.',
        params: TaskKeyParams,
        querystring: LinkListQuery,
        response: { 200: ListEnvelope(Type.Ref(TaskLink)), ...errorResponses(404) },
      },
      config: { scope: 'tasks:read' },
    },
    async (request) =>
      listOf(await links.listLinks(ctx, principalOf(request), request.params.task_key, pageRequest(request.query))),
  );

  app.delete(
    '/api/v1/tasks/:task_key/links/:id/',
    {
      schema: {
        tags,
        summary: 'Delete a link (through either of its tasks)',
        description: 'Both tasks get an `unlinked` activity entry.',
        params: LinkParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404) },
      },
      config: { scope: 'tasks:write' },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      return commitNoContent(ctx, reply, (tx) =>
        links.deleteLink(tx, caller, request.params.task_key, request.params.id),
      );
    },
  );
}
