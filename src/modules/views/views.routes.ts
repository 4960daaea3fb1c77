import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { listOf, ok } from '../../http/envelope.ts';
import { commitNoContent } from '../../http/no-content.ts';
import { pageRequest } from '../../http/pagination.ts';
import { Envelope, errorResponses, ListEnvelope } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import { Task } from '../tasks/task.schemas.ts';
import { View, ViewCreateBody, ViewIdParams, ViewListQuery, ViewPatchBody, ViewTasksQuery } from './views.schemas.ts';
import { createView, deleteView, getView, listViews, updateView, viewTasks } from './views.service.ts';

export const viewModels = [View];

const tags = ['Views'];
const read = { scope: 'tasks:read' } as const;
const write = { scope: 'tasks:write' } as const;
const one = Envelope(Type.Ref(View));

/** Saved views (docs/api/views.md): list, create, read, change, delete, and the tasks one shows. */
export function registerViewRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/views/',
    {
      schema: {
        tags,
        summary: 'List the saved views the caller can see: its own, and those shared with it',
        querystring: ViewListQuery,
        response: { 200: ListEnvelope(Type.Ref(View)), ...errorResponses(404) },
      },
      config: read,
    },
    async (request) => listOf(await listViews(ctx, principalOf(request), request.query, pageRequest(request.query))),
  );

  app.post(
    '/api/v1/views/',
    {
      schema: {
        tags,
        summary: 'Save a view: a query and how to show its tasks',
        description:
          'The query is checked on save (400 INVALID_QUERY with `details.position`). A view shared with a project needs a role above viewer there; one shared with the organization (no project) a workspace role above guest.',
        body: ViewCreateBody,
        response: { 201: one, ...errorResponses(404) },
      },
      config: write,
    },
    async (request, reply) => {
      reply.code(201);
      return commitWrite(ctx, request, reply, (tx) => createView(tx, principalOf(request), request.body), ok);
    },
  );

  app.get(
    '/api/v1/views/:id/',
    {
      schema: {
        tags,
        summary: 'Read a saved view',
        params: ViewIdParams,
        response: { 200: one, ...errorResponses(404) },
      },
      config: read,
    },
    async (request) => ok(await getView(ctx, principalOf(request), request.params.id)),
  );

  app.patch(
    '/api/v1/views/:id/',
    {
      schema: {
        tags,
        summary: 'Change a saved view (any of its fields)',
        description:
          'Its creator may change it; a shared view also whoever administers its project (workspace owners and admins for one shared with the organization).',
        params: ViewIdParams,
        body: ViewPatchBody,
        response: { 200: one, ...errorResponses(404) },
      },
      config: write,
    },
    async (request, reply) =>
      commitWrite(
        ctx,
        request,
        reply,
        (tx) => updateView(tx, principalOf(request), request.params.id, request.body),
        ok,
      ),
  );

  app.delete(
    '/api/v1/views/:id/',
    {
      schema: {
        tags,
        summary: 'Delete a saved view',
        params: ViewIdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404) },
      },
      config: write,
    },
    async (request, reply) =>
      commitNoContent(ctx, reply, (tx) => deleteView(tx, principalOf(request), request.params.id)),
  );

  app.get(
    '/api/v1/views/:id/tasks/',
    {
      schema: {
        tags,
        summary: 'The tasks a view shows: its query, run for the caller',
        description:
          "Within the view's project, or across every project the caller sees; dates in the time zone `tz`. Paginated as GET /tasks/?q=.",
        params: ViewIdParams,
        querystring: ViewTasksQuery,
        response: { 200: ListEnvelope(Type.Ref(Task)), ...errorResponses(404) },
      },
      config: read,
    },
    async (request) =>
      listOf(
        await viewTasks(ctx, principalOf(request), request.params.id, request.query.tz, pageRequest(request.query)),
      ),
  );
}
