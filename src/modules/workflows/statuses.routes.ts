import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { listOf, ok } from '../../http/envelope.ts';
import { commitNoContent } from '../../http/no-content.ts';
import { pageRequest } from '../../http/pagination.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import { Envelope, errorResponses, IdParams, ListEnvelope } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import type { StatusJson } from './workflows.presenter.ts';
import * as statuses from './statuses.service.ts';
import { Status, StatusCreateBody, StatusListQuery, StatusReorderBody, StatusUpdateBody } from './workflows.schemas.ts';

export function registerStatusRoutes(app: Api, ctx: AppContext): void {
  const tags = ['Workflows'];
  const one = Envelope(Type.Ref(Status));

  app.get(
    '/api/v1/statuses/',
    {
      schema: {
        tags,
        summary: 'List statuses of visible projects',
        description:
          "Ordered by project, then board position, unless `ordering` says otherwise. Read these before offering a status change: a task moves only along a transition of its project's active workflow.",
        querystring: StatusListQuery,
        response: { 200: ListEnvelope(Type.Ref(Status)), ...errorResponses() },
      },
      config: { scope: 'workflows:read' },
    },
    async (request) => {
      const { project, category } = request.query;
      return listOf(
        await statuses.listStatuses(ctx, principalOf(request), { project, category }, pageRequest(request.query)),
      );
    },
  );

  app.post(
    '/api/v1/statuses/',
    {
      schema: {
        tags,
        summary: 'Add a status to a project (project admins)',
        description: 'A new status is reachable only once a transition of the active workflow leads to it.',
        body: StatusCreateBody,
        response: { 201: one, ...errorResponses(404, 409) },
      },
      config: { scope: 'workflows:write' },
    },
    async (request, reply) => {
      reply.code(201);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => statuses.createStatus(tx, principalOf(request), request.body),
        ok<StatusJson>,
      );
    },
  );

  registerStatusReorderRoute(app, ctx);

  app.get(
    '/api/v1/statuses/:id/',
    {
      schema: { tags, summary: 'Read a status', params: IdParams, response: { 200: one, ...errorResponses(404) } },
      config: { scope: 'workflows:read' },
    },
    async (request) => ok(await statuses.getStatus(ctx, principalOf(request), request.params.id)),
  );

  app.put(
    '/api/v1/statuses/:id/',
    {
      schema: {
        tags,
        summary: 'Rename a status or change its category',
        params: IdParams,
        body: StatusUpdateBody,
        response: { 200: one, ...errorResponses(404, 409) },
      },
      config: { scope: 'workflows:write' },
    },
    async (request, reply) =>
      commitWrite(
        ctx,
        request,
        reply,
        (tx) => statuses.updateStatus(tx, principalOf(request), request.params.id, request.body),
        ok<StatusJson>,
      ),
  );

  app.delete(
    '/api/v1/statuses/:id/',
    {
      schema: {
        tags,
        summary: 'Delete a status no task uses',
        description:
          'Refused with 409 STATUS_IN_USE (`details.task_count`) while tasks are in the status: move them first; nothing cascades. ' +
          "The project's default status is refused with 409 STATUS_IS_DEFAULT. Transitions into and out of the " +
          'deleted status are deleted with it, and later statuses move up one board position.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404, 409) },
      },
      config: { scope: 'workflows:write' },
    },
    async (request, reply) =>
      commitNoContent(ctx, reply, (tx) => statuses.deleteStatus(tx, principalOf(request), request.params.id)),
  );
}

/** Board order is set for all of a project's statuses at once. */
function registerStatusReorderRoute(app: Api, ctx: AppContext): void {
  const tags = ['Workflows'];
  app.post(
    '/api/v1/statuses/reorder/',
    {
      schema: {
        tags,
        summary: "Set the board order of a project's statuses",
        description:
          "Changes board column order only, never any task's status. `statuses` must name every status of the " +
          'project exactly once; otherwise 400 with `details.missing` and `details.unknown`. Answers with the statuses in their new order.',
        body: StatusReorderBody,
        response: { 200: Envelope(Type.Array(Type.Ref(Status))), ...errorResponses(404) },
      },
      config: { scope: 'workflows:write' },
    },
    async (request, reply) => {
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => statuses.reorderStatuses(tx, principalOf(request), request.body),
        ok<StatusJson[]>,
      );
    },
  );
}
