import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth-hook.ts';
import { ok } from '../../http/envelope.ts';
import { Envelope, errorResponses, Timestamp } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { visibleProjects } from '../projects/visibility.ts';

const Me = Type.Object(
  {
    account: Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      email: Type.Union([Type.String(), Type.Null()]),
      kind: Type.Union([Type.Literal('human'), Type.Literal('service')]),
      role: Type.String({ description: 'Workspace role: owner, admin, member or guest.' }),
    }),
    organization: Type.Object({ id: Type.Integer(), slug: Type.String(), name: Type.String() }),
    token: Type.Union([
      Type.Object({
        id: Type.Integer(),
        scopes: Type.Array(Type.String(), { description: 'Effective scopes (a write scope adds its read scope).' }),
        projects: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'Project keys the token is restricted to; null when unrestricted.' }),
        expires_at: Type.Union([Timestamp, Type.Null()]),
      }),
      Type.Null(),
    ], { description: 'The bearer token; null when a signed-in person\'s session cookie authenticated the request (every scope, no restriction).' }),
    projects: Type.Array(Type.Object({ id: Type.Integer(), key: Type.String(), name: Type.String(), role: Type.String() }), {
      description: 'Every project this token can see.',
    }),
  },
  { $id: 'Me', title: 'Me' },
);

export const meModels = [Me];

export function registerMeRoutes(app: Api, ctx: AppContext): void {
  app.get('/api/v1/me/', {
    schema: {
      tags: ['Access'],
      summary: 'Who the token is: account, organization, effective scopes, restriction, visible projects',
      response: { 200: Envelope(Type.Ref(Me)), ...errorResponses() },
    },
    config: { scope: 'authenticated' },
  }, async (request) => {
    const principal = principalOf(request);
    const projects = await visibleProjects(ctx.db, principal).select(['p.id', 'p.key', 'p.name', 'pm.role']).orderBy('p.key').execute();
    let restrictedKeys: string[] | null = null;
    if (principal.projectRestriction) {
      const ids = principal.projectRestriction.length ? principal.projectRestriction : [-1];
      const rows = await ctx.db.selectFrom('projects').select('key').where('id', 'in', ids).orderBy('key').execute();
      restrictedKeys = rows.map((r) => r.key);
    }
    return ok({
      account: { id: principal.userId, name: principal.userName, email: principal.userEmail, kind: principal.userKind, role: principal.role },
      organization: { id: principal.organizationId, slug: principal.organizationSlug, name: principal.organizationName },
      token: principal.sessionId ? null : { id: principal.tokenId, scopes: principal.scopes, projects: restrictedKeys, expires_at: principal.expiresAt },
      projects,
    });
  });
}
