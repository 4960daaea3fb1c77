import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { listOf, ok } from '../../http/envelope.ts';
import { commitNoContent } from '../../http/no-content.ts';
import { pageRequest } from '../../http/pagination.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import { Envelope, errorResponses, IdParams, ListEnvelope, PaginationQuery } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { callerOf } from '../tasks/task.http.ts';
import * as memberships from './memberships.service.ts';
import { Membership, MembershipCreateBody, MembershipPatchBody, MembershipPutBody } from './projects.schemas.ts';

/** Who belongs to a project, with which role (docs/domain/projects-and-workflows.md, "Memberships"). */
export function registerMembershipRoutes(app: Api, ctx: AppContext): void {
  const memberTags = ['Memberships'];
  const member = Envelope(Type.Ref(Membership));

  app.get(
    '/api/v1/memberships/',
    {
      schema: {
        tags: memberTags,
        summary: 'List project memberships of visible projects',
        querystring: Type.Object({
          ...PaginationQuery,
          project: Type.Optional(Type.Integer({ minimum: 1, description: 'Project id filter.' })),
        }),
        response: { 200: ListEnvelope(Type.Ref(Membership)), ...errorResponses() },
      },
      config: { scope: 'projects:read' },
    },
    async (request) =>
      listOf(
        await memberships.listMemberships(ctx, principalOf(request), request.query.project, pageRequest(request.query)),
      ),
  );

  app.post(
    '/api/v1/memberships/',
    {
      schema: {
        tags: memberTags,
        summary: 'Add a user to a project (project admins)',
        body: MembershipCreateBody,
        response: { 201: member, ...errorResponses(404, 409) },
      },
      config: { scope: 'projects:write' },
    },
    async (request, reply) => {
      reply.code(201);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => memberships.createMembership(tx, callerOf(request), request.body),
        ok<memberships.MembershipJson>,
      );
    },
  );

  app.get(
    '/api/v1/memberships/:id/',
    {
      schema: {
        tags: memberTags,
        summary: 'Read a membership',
        params: IdParams,
        response: { 200: member, ...errorResponses(404) },
      },
      config: { scope: 'projects:read' },
    },
    async (request) => ok(await memberships.getMembership(ctx, principalOf(request), request.params.id)),
  );

  app.put(
    '/api/v1/memberships/:id/',
    {
      schema: {
        tags: memberTags,
        summary: "Set a membership's role",
        params: IdParams,
        body: MembershipPutBody,
        response: { 200: member, ...errorResponses(404, 409) },
      },
      config: { scope: 'projects:write' },
    },
    async (request, reply) =>
      commitWrite(
        ctx,
        request,
        reply,
        (tx) => memberships.updateMembership(tx, callerOf(request), request.params.id, request.body.role),
        ok<memberships.MembershipJson>,
      ),
  );

  app.patch(
    '/api/v1/memberships/:id/',
    {
      schema: {
        tags: memberTags,
        summary: "Change a membership's role",
        params: IdParams,
        body: MembershipPatchBody,
        response: { 200: member, ...errorResponses(404, 409) },
      },
      config: { scope: 'projects:write' },
    },
    async (request, reply) =>
      commitWrite(
        ctx,
        request,
        reply,
        (tx) => memberships.updateMembership(tx, callerOf(request), request.params.id, request.body.role),
        ok<memberships.MembershipJson>,
      ),
  );

  app.delete(
    '/api/v1/memberships/:id/',
    {
      schema: {
        tags: memberTags,
        summary: 'Remove a user from a project',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(404, 409) },
      },
      config: { scope: 'projects:write' },
    },
    async (request, reply) =>
      commitNoContent(ctx, reply, (tx) => memberships.deleteMembership(tx, callerOf(request), request.params.id)),
  );
}
