import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { invalid } from '../../http/errors.ts';
import { listOf, ok } from '../../http/envelope.ts';
import { commitNoContent } from '../../http/no-content.ts';
import { pageRequest } from '../../http/pagination.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import { Envelope, errorResponses, ListEnvelope, PaginationQuery } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import type { Principal } from '../../identity/principal.ts';
import { callerOf } from '../tasks/task.http.ts';
import { registerMembershipRoutes } from './memberships.routes.ts';
import * as projects from './projects.service.ts';
import { Membership, Project, ProjectCreateBody, ProjectPatchBody, ProjectPutBody } from './projects.schemas.ts';
import { readableProjectByKey } from '../../policy/index.ts';

export const projectModels = [Project, Membership];

/** `/projects/{id}/` takes the id or the key, like every other route and the getting-started tour use the key. */
const ProjectIdOrKeyParams = Type.Object({
  id: Type.String({
    pattern: '^(?:[1-9][0-9]{0,9}|[A-Z][A-Z0-9]{1,9})$',
    description: "The project's integer id or its key, e.g. `12` or `WEB`.",
    examples: ['WEB'],
  }),
});

/** The id a `{id}` path parameter names; a key the caller cannot see is 404, like an unknown id. */
async function projectIdOf(ctx: AppContext, principal: Principal, idOrKey: string): Promise<number> {
  if (!/^[0-9]+$/.test(idOrKey)) {
    return (await readableProjectByKey(ctx.db, principal, idOrKey)).id;
  }
  const id = Number(idOrKey);
  if (id > 2147483647) throw invalid({ id: 'must be <= 2147483647' });
  return id;
}

export function registerProjectRoutes(app: Api, ctx: AppContext): void {
  const tags = ['Projects'];
  const one = Envelope(Type.Ref(Project));

  app.get(
    '/api/v1/projects/',
    {
      schema: {
        tags,
        summary: 'List the projects the caller can see',
        querystring: Type.Object(PaginationQuery),
        response: { 200: ListEnvelope(Type.Ref(Project)), ...errorResponses() },
      },
      config: { scope: 'projects:read' },
    },
    async (request) => listOf(await projects.listProjects(ctx, principalOf(request), pageRequest(request.query))),
  );

  app.post(
    '/api/v1/projects/',
    {
      schema: {
        tags,
        summary: 'Create a project (provisioned with default statuses, types, priorities and workflow)',
        body: ProjectCreateBody,
        response: { 201: one, ...errorResponses(409) },
      },
      config: { scope: 'projects:write' },
    },
    async (request, reply) => {
      reply.code(201);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => projects.createProject(tx, callerOf(request), request.body),
        ok<projects.ProjectJson>,
      );
    },
  );

  app.get(
    '/api/v1/projects/:id/',
    {
      schema: {
        tags,
        summary: 'Read a project',
        params: ProjectIdOrKeyParams,
        response: { 200: one, ...errorResponses(404) },
      },
      config: { scope: 'projects:read' },
    },
    async (request) =>
      ok(
        await projects.getProject(
          ctx,
          principalOf(request),
          await projectIdOf(ctx, principalOf(request), request.params.id),
        ),
      ),
  );

  app.put(
    '/api/v1/projects/:id/',
    {
      schema: {
        tags,
        summary: "Replace a project's writable fields",
        params: ProjectIdOrKeyParams,
        body: ProjectPutBody,
        response: { 200: one, ...errorResponses(404) },
      },
      config: { scope: 'projects:write' },
    },
    async (request, reply) => {
      const id = await projectIdOf(ctx, principalOf(request), request.params.id);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => projects.updateProject(tx, callerOf(request), id, request.body, 'put'),
        ok<projects.ProjectJson>,
      );
    },
  );

  app.patch(
    '/api/v1/projects/:id/',
    {
      schema: {
        tags,
        summary: "Change some of a project's fields",
        params: ProjectIdOrKeyParams,
        body: ProjectPatchBody,
        response: { 200: one, ...errorResponses(404) },
      },
      config: { scope: 'projects:write' },
    },
    async (request, reply) => {
      const id = await projectIdOf(ctx, principalOf(request), request.params.id);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => projects.updateProject(tx, callerOf(request), id, request.body, 'patch'),
        ok<projects.ProjectJson>,
      );
    },
  );

  app.delete(
    '/api/v1/projects/:id/',
    {
      schema: {
        tags,
        summary: 'Delete a project and everything in it',
        params: ProjectIdOrKeyParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404) },
      },
      config: { scope: 'projects:write' },
    },
    async (request, reply) => {
      const id = await projectIdOf(ctx, principalOf(request), request.params.id);
      return commitNoContent(ctx, reply, (tx) => projects.deleteProject(tx, principalOf(request), id));
    },
  );

  registerMembershipRoutes(app, ctx);
}
