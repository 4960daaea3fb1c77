import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { setSessionCookie } from '../../identity/session-auth.ts';
import { ok } from '../../http/envelope.ts';
import { Envelope, errorResponses, IdParams } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import * as oidc from './oidc.service.ts';
import { endSessionUrl } from './oidc.client.ts';
import { readMapping, saveMapping } from './mapping-settings.service.ts';

/**
 * OpenID Connect sign-in under /api/console/oidc/ (docs/operating/oidc.md). The browser is
 * sent to the provider with a `state` that is also kept in a cookie of its own, so only the
 * browser that started a flow can finish it; the callback then redirects to the app: to the
 * page asked for, or to the sign-in problem page naming what went wrong.
 */
const hide = true;
const signedIn = { console: true } as const;
const PLAIN_STATE_COOKIE = 'tt_oidc';
const SECURE_STATE_COOKIE = '__Host-tt_oidc';

const stateCookieName = (request: FastifyRequest) =>
  request.protocol === 'https' ? SECURE_STATE_COOKIE : PLAIN_STATE_COOKIE;

function setStateCookie(request: FastifyRequest, reply: FastifyReply, state: string, maxAgeSeconds: number) {
  // Lax: the provider's redirect back is a top-level GET from its site, which Lax lets through.
  reply.setCookie(stateCookieName(request), state, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
    maxAge: maxAgeSeconds,
  });
}

const OidcInfo = Type.Object({
  enabled: Type.Boolean(),
  name: Type.Union([Type.String(), Type.Null()]),
  password_sign_in: Type.Boolean(),
  provider_sign_out: Type.Boolean(),
});

const NextQuery = Type.Object({ next: Type.Optional(Type.String({ maxLength: 500 })) });

const TestResult = Type.Object({
  id: Type.Integer(),
  created_at: Type.String(),
  ok: Type.Boolean(),
  error: Type.Union([Type.String(), Type.Null()]),
  claims: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  plan: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
});

const Group = Type.String({ minLength: 1, maxLength: 200, description: 'A group name as the provider sends it.' });
const WorkspaceRole = Type.Union([
  Type.Literal('owner'),
  Type.Literal('admin'),
  Type.Literal('member'),
  Type.Literal('guest'),
]);
const ProjectRole = Type.Union([Type.Literal('admin'), Type.Literal('member'), Type.Literal('viewer')]);

const MappingInput = Type.Object(
  {
    groups_claim: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'The claim that lists the groups (groups).',
    }),
    roles: Type.Array(Type.Object({ group: Group, role: WorkspaceRole }, { additionalProperties: false }), {
      maxItems: 100,
      description: 'Groups to workspace roles.',
    }),
    projects: Type.Array(
      Type.Object(
        { group: Group, project: Type.String({ pattern: '^[A-Z][A-Z0-9]*$', maxLength: 10 }), role: ProjectRole },
        { additionalProperties: false },
      ),
      { maxItems: 100, description: 'Groups to memberships of the project of that key.' },
    ),
  },
  { additionalProperties: false },
);

const Mapping = Type.Object({
  source: Type.Union([Type.Literal('environment'), Type.Literal('settings')], {
    description: 'environment: OIDC_GROUPS_CLAIM, OIDC_ROLE_MAP and OIDC_PROJECT_MAP; settings: saved here.',
  }),
  groups_claim: Type.String(),
  roles: Type.Array(Type.Object({ group: Type.String(), role: WorkspaceRole })),
  projects: Type.Array(Type.Object({ group: Type.String(), project: Type.String(), role: ProjectRole })),
  updated_at: Type.Union([Type.String(), Type.Null()]),
  updated_by: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]),
});

export function registerOidcRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/console/oidc/mapping/',
    { schema: { hide, response: { 200: Envelope(Mapping), ...errorResponses(404) } }, config: signedIn },
    async (request) => ok(await readMapping(ctx, principalOf(request))),
  );

  app.put(
    '/api/console/oidc/mapping/',
    {
      schema: { hide, body: MappingInput, response: { 200: Envelope(Mapping), ...errorResponses(404) } },
      config: signedIn,
    },
    async (request) => ok(await saveMapping(ctx, principalOf(request), request.body)),
  );

  app.delete(
    '/api/console/oidc/mapping/',
    { schema: { hide, response: { 200: Envelope(Mapping), ...errorResponses(404) } }, config: signedIn },
    async (request) => ok(await saveMapping(ctx, principalOf(request), null)),
  );

  app.get(
    '/api/console/oidc/',
    { schema: { hide, response: { 200: Envelope(OidcInfo), ...errorResponses() } } },
    async (request) => {
      const info = oidc.publicInfo(ctx);
      let providerSignOut = false;
      if (ctx.config.oidc) {
        try {
          providerSignOut = (await endSessionUrl(ctx, ctx.config.oidc)) !== null;
        } catch (error) {
          // The provider being down must not break the sign-in screen's password form.
          request.log.warn({ err: error }, 'OpenID provider discovery failed');
        }
      }
      return ok({ ...info, provider_sign_out: providerSignOut });
    },
  );

  app.get(
    '/api/console/oidc/start/',
    { schema: { hide, querystring: NextQuery, response: errorResponses(404) } },
    async (request, reply) => {
      const { url, state } = await oidc.beginFlow(ctx, 'sign-in', {
        requestedBy: null,
        next: request.query.next ?? '/',
      });
      setStateCookie(request, reply, state, 600);
      return reply.redirect(url, 302);
    },
  );

  app.get(
    '/api/console/oidc/test/start/',
    { schema: { hide, response: errorResponses(404) }, config: signedIn },
    async (request, reply) => {
      const principal = principalOf(request);
      oidc.assertOwner(principal);
      const { url, state } = await oidc.beginFlow(ctx, 'test', { requestedBy: principal.userId, next: '/' });
      setStateCookie(request, reply, state, 600);
      return reply.redirect(url, 302);
    },
  );

  app.get(
    '/api/console/oidc/test/:id/',
    {
      schema: { hide, params: IdParams, response: { 200: Envelope(TestResult), ...errorResponses(404) } },
      config: signedIn,
    },
    async (request) => ok(await oidc.testResult(ctx, principalOf(request), request.params.id)),
  );

  app.get('/api/console/oidc/callback/', { schema: { hide, response: errorResponses() } }, async (request, reply) => {
    const cookieState = request.cookies[stateCookieName(request)];
    reply.clearCookie(stateCookieName(request), { path: '/', secure: request.protocol === 'https' });
    // The URL the provider sent the browser to: our redirect URI (PUBLIC_BASE_URL's) with its answer.
    const url = new URL(request.url, ctx.config.publicBaseUrl ?? `${request.protocol}://${request.host}`);
    try {
      const outcome = await oidc.completeFlow(ctx, {
        url,
        cookieState,
        client: { userAgent: String(request.headers['user-agent'] ?? ''), ip: request.ip, requestId: request.id },
      });
      if (outcome.kind === 'tested') return reply.redirect(`/settings/sign-in?result=${outcome.id}`, 302);
      setSessionCookie(request, reply, outcome.session);
      return reply.redirect(outcome.next, 302);
    } catch (error) {
      if (!(error instanceof oidc.OidcRefusal)) throw error;
      request.log.warn({ reason: error.reason, detail: error.message }, 'OpenID Connect sign-in refused');
      return reply.redirect(`/sign-in/problem?reason=${error.reason}`, 302);
    }
  });

  app.get(
    '/api/console/oidc/sign-out/',
    { schema: { hide, response: errorResponses(404) } },
    async (_request, reply) => {
      const url = await endSessionUrl(ctx, oidc.configured(ctx));
      return reply.redirect(url ?? '/sign-in', 302);
    },
  );
}
