import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { ok } from '../../http/envelope.ts';
import { commitNoContent } from '../../http/no-content.ts';
import { ApiError } from '../../http/errors.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { Api } from '../../http/types.ts';
import { Envelope, errorResponses, IdParams } from '../../http/schemas.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import {
  assertSameOrigin,
  clearSessionCookie,
  currentSession,
  linkBase,
  setSessionCookie,
} from '../../identity/session-auth.ts';
import { listSessions, revokeSession } from '../../identity/sessions.service.ts';
import { SignInThrottle } from '../../identity/sign-in-throttle.ts';
import { registerAuditRoutes } from '../audit/audit.routes.ts';
import * as schemas from './console.schemas.ts';
import * as invitations from './invitations.service.ts';
import type { Client } from '../../identity/client.ts';
import * as resets from './password-resets.service.ts';
import { hashNewPassword } from '../../identity/passwords.ts';
import * as people from './people.service.ts';
import * as setup from './setup.service.ts';
import * as signIn from '../../identity/sign-in.service.ts';
import * as tokens from '../../identity/tokens.service.ts';
import { registerOidcRoutes } from '../oidc/oidc.routes.ts';

/**
 * The organization console API under /api/console/ (docs/people.md, "The console API"): what the
 * web app needs beyond the published API. Only a signed-in person's session cookie
 * authenticates it (`config.console`); it is left out of the published OpenAPI document.
 * Writes run in one unit of work each; a new password is hashed before it, and mail goes out
 * after it.
 */
const wrongCredentials = (ctx: AppContext) =>
  ctx.config.oidc && !ctx.config.oidc.passwordSignIn
    ? `Wrong e-mail or password. Password sign-in is for owners only here: everyone else signs in with ${ctx.config.oidc.name}.`
    : 'Wrong e-mail or password.';
const hide = true;
const signedIn = { console: true } as const;
/** For answers that carry a secret shown once (a token, a link's token): a stored idempotent answer is kept encrypted. */
const signedInSecret = { console: true, sealStoredResponse: true } as const;
const sessionResponse = Envelope(schemas.SessionPayload);
const noContent = { 204: Type.Null() };

const clientOf = (request: FastifyRequest): Client => ({
  userAgent: String(request.headers['user-agent'] ?? ''),
  ip: request.ip,
  requestId: request.id,
});

export function registerConsoleRoutes(fastify: FastifyInstance, ctx: AppContext, limits: RateLimits): void {
  const app: Api = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // Public routes (no session yet) refuse a foreign Origin: a foreign page cannot sign the browser in.
  app.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/api/console/') && !request.routeOptions.config.console)
      assertSameOrigin(ctx, request, false);
  });
  const throttle = new SignInThrottle(limits, ctx.config.signIn);
  registerSignInRoutes(app, ctx, throttle);
  registerOwnAccountRoutes(app, ctx, throttle);
  registerOrganizationRoutes(app, ctx);
  registerTokenRoutes(app, ctx);
  registerOidcRoutes(app, ctx);
  registerAuditRoutes(app, ctx);
}

/** Public: first-run setup, sign-in, accepting an invitation, password resets. */
function registerSignInRoutes(app: Api, ctx: AppContext, throttle: SignInThrottle): void {
  app.get(
    '/api/console/setup/',
    {
      schema: { hide, response: { 200: Envelope(Type.Object({ needed: Type.Boolean() })), ...errorResponses() } },
    },
    async () => ok({ needed: await setup.setupNeeded(ctx) }),
  );

  app.post(
    '/api/console/setup/',
    {
      schema: { hide, body: schemas.SetupBody, response: { 201: sessionResponse, ...errorResponses(409) } },
    },
    async (request, reply) => {
      const attempt = await throttle.attempt(reply, request.ip);
      await setup.assertSetupLink(ctx, request.body.token);
      const passwordHash = await hashNewPassword(ctx, request.body.password);
      const { session, payload } = await inTransaction(ctx, (tx) =>
        setup.completeSetup(tx, request.body, passwordHash, clientOf(request)),
      );
      await attempt.succeeded();
      setSessionCookie(request, reply, session);
      return reply.code(201).send(ok(payload));
    },
  );

  app.post(
    '/api/console/sign-in/',
    {
      schema: { hide, body: schemas.SignInBody, response: { 200: sessionResponse, ...errorResponses() } },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const attempt = await throttle.attempt(reply, request.ip, email);
      const account = await signIn.accountForCredentials(ctx, { email, password });
      if (account === null) {
        await signIn.recordFailedSignIn(ctx, email, clientOf(request), 'password');
        throw new ApiError('INVALID_CREDENTIALS', wrongCredentials(ctx));
      }
      const result = await inTransaction(ctx, (tx) => signIn.signInWith(tx, account, clientOf(request), 'password'));
      await attempt.succeeded();
      setSessionCookie(request, reply, result.session);
      return ok(result.payload);
    },
  );

  app.get(
    '/api/console/invitations/lookup/',
    {
      schema: {
        hide,
        querystring: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 200: Envelope(schemas.InvitationLookup), ...errorResponses(404) },
      },
    },
    async (request) => ok(await invitations.lookupInvitation(ctx, request.query.token)),
  );

  app.post(
    '/api/console/invitations/accept/',
    {
      schema: { hide, body: schemas.AcceptBody, response: { 201: sessionResponse, ...errorResponses(409) } },
    },
    async (request, reply) => {
      const attempt = await throttle.attempt(reply, request.ip);
      await invitations.assertInvitationLink(ctx, request.body.token);
      const passwordHash = await hashNewPassword(ctx, request.body.password);
      const { session, payload } = await inTransaction(ctx, (tx) =>
        invitations.acceptInvitation(tx, request.body, passwordHash, clientOf(request)),
      );
      await attempt.succeeded();
      setSessionCookie(request, reply, session);
      return reply.code(201).send(ok(payload));
    },
  );

  app.post(
    '/api/console/password-resets/',
    {
      schema: {
        hide,
        body: schemas.ResetRequestBody,
        response: { 202: Type.Object({ success: Type.Literal(true), data: Type.Null() }), ...errorResponses() },
      },
    },
    async (request, reply) => {
      await throttle.spendAddress(reply, request.ip);
      const mails = await inTransaction(ctx, (tx) => resets.requestPasswordReset(tx, request.body.email));
      // Not awaited: the answer must not take longer when someone was found.
      void resets.sendResetMails(ctx, request.log, mails);
      return reply.code(202).send({ success: true, data: null });
    },
  );

  app.post(
    '/api/console/password-resets/complete/',
    {
      schema: { hide, body: schemas.ResetCompleteBody, response: { 200: sessionResponse, ...errorResponses() } },
    },
    async (request, reply) => {
      const attempt = await throttle.attempt(reply, request.ip);
      await resets.assertResetLink(ctx, request.body.token);
      const passwordHash = await hashNewPassword(ctx, request.body.password);
      const { session, payload } = await inTransaction(ctx, (tx) =>
        resets.completePasswordReset(tx, request.body, passwordHash, clientOf(request)),
      );
      await attempt.succeeded();
      setSessionCookie(request, reply, session);
      return ok(payload);
    },
  );
}

/** Signed in, about oneself: the session, sign-out, one's sessions, profile and password. */
function registerOwnAccountRoutes(app: Api, ctx: AppContext, throttle: SignInThrottle): void {
  app.get(
    '/api/console/session/',
    {
      schema: { hide, response: { 200: sessionResponse, ...errorResponses() } },
      config: signedIn,
    },
    async (request) => ok(await signIn.sessionPayload(ctx, ctx.db, currentSession(request))),
  );

  app.post(
    '/api/console/sign-out/',
    {
      schema: { hide, response: { ...noContent, ...errorResponses() } },
      config: signedIn,
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await inTransaction(ctx, (tx) => revokeSession(tx, principal.userId, currentSession(request).id));
      clearSessionCookie(request, reply);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/console/sessions/',
    {
      schema: { hide, response: { 200: Envelope(Type.Array(schemas.SessionItem)), ...errorResponses() } },
      config: signedIn,
    },
    async (request) => ok(await listSessions(ctx, principalOf(request).userId, currentSession(request).id)),
  );

  app.delete(
    '/api/console/sessions/:id/',
    {
      schema: { hide, params: IdParams, response: { ...noContent, ...errorResponses(404) } },
      config: signedIn,
    },
    async (request, reply) => {
      await inTransaction(ctx, (tx) => revokeSession(tx, principalOf(request).userId, request.params.id));
      if (request.params.id === currentSession(request).id) clearSessionCookie(request, reply);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/console/profile/',
    {
      schema: { hide, response: { 200: Envelope(schemas.Person), ...errorResponses() } },
      config: signedIn,
    },
    async (request) => ok(await people.getProfile(ctx, principalOf(request))),
  );

  app.patch(
    '/api/console/profile/',
    {
      schema: { hide, body: schemas.NameBody, response: { 200: Envelope(schemas.Person), ...errorResponses() } },
      config: signedIn,
    },
    async (request, reply) =>
      commitWrite(ctx, request, reply, (tx) => people.updateProfile(tx, principalOf(request), request.body), ok),
  );

  app.post(
    '/api/console/profile/password/',
    {
      schema: { hide, body: schemas.PasswordChangeBody, response: { ...noContent, ...errorResponses() } },
      config: signedIn,
    },
    async (request, reply) => {
      const principal = principalOf(request);
      // Guessing the current password from a stolen session is throttled like signing in.
      const attempt = await throttle.attempt(reply, request.ip, principal.userEmail ?? String(principal.userId));
      const passwordHash = await people.checkPasswordChange(ctx, principal, request.body);
      await attempt.succeeded();
      return commitNoContent(ctx, reply, (tx) => people.changePassword(tx, principal, passwordHash));
    },
  );
}

/** Signed in, about the organization: its name, its people and invitations. */
function registerOrganizationRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/console/organization/',
    {
      schema: { hide, response: { 200: Envelope(schemas.Organization), ...errorResponses() } },
      config: signedIn,
    },
    async (request) => ok(await people.getOrganization(ctx, principalOf(request))),
  );

  app.patch(
    '/api/console/organization/',
    {
      schema: { hide, body: schemas.NameBody, response: { 200: Envelope(schemas.Organization), ...errorResponses() } },
      config: signedIn,
    },
    async (request, reply) =>
      commitWrite(ctx, request, reply, (tx) => people.updateOrganization(tx, principalOf(request), request.body), ok),
  );

  app.get(
    '/api/console/people/',
    {
      schema: { hide, response: { 200: Envelope(Type.Array(schemas.Person)), ...errorResponses() } },
      config: signedIn,
    },
    async (request) => ok(await people.listPeople(ctx, principalOf(request))),
  );

  app.patch(
    '/api/console/people/:id/',
    {
      schema: {
        hide,
        params: IdParams,
        body: schemas.PersonPatchBody,
        response: { 200: Envelope(schemas.Person), ...errorResponses(404, 409) },
      },
      config: signedIn,
    },
    async (request, reply) =>
      commitWrite(
        ctx,
        request,
        reply,
        (tx) => people.updatePerson(tx, principalOf(request), request.params.id, request.body),
        ok,
      ),
  );

  app.post(
    '/api/console/people/:id/password-reset/',
    {
      schema: { hide, params: IdParams, response: { 201: Envelope(schemas.ResetLink), ...errorResponses(404) } },
      config: signedInSecret,
    },
    async (request, reply) => {
      reply.code(201);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => resets.issuePasswordReset(tx, principalOf(request), request.params.id, linkBase(ctx, request)),
        ok,
      );
    },
  );

  app.get(
    '/api/console/invitations/',
    {
      schema: { hide, response: { 200: Envelope(Type.Array(schemas.Invitation)), ...errorResponses() } },
      config: signedIn,
    },
    async (request) => ok(await invitations.listInvitations(ctx, principalOf(request))),
  );

  app.post(
    '/api/console/invitations/',
    {
      schema: {
        hide,
        body: schemas.InvitationBody,
        response: { 201: Envelope(schemas.CreatedInvitation), ...errorResponses(409) },
      },
      config: signedInSecret,
    },
    async (request, reply) => {
      const recorded = await inTransaction(ctx, (tx) =>
        invitations.createInvitation(tx, principalOf(request), request.body, linkBase(ctx, request)),
      );
      return reply.code(201).send(ok(await invitations.mailInvitation(ctx, request.log, recorded)));
    },
  );

  app.delete(
    '/api/console/invitations/:id/',
    {
      schema: { hide, params: IdParams, response: { ...noContent, ...errorResponses(404) } },
      config: signedIn,
    },
    async (request, reply) =>
      commitNoContent(ctx, reply, (tx) => invitations.revokeInvitation(tx, principalOf(request), request.params.id)),
  );
}

/** Signed in: service accounts and API tokens (one's own, or every one for owners and admins). */
function registerTokenRoutes(app: Api, ctx: AppContext): void {
  app.post(
    '/api/console/service-accounts/',
    {
      schema: {
        hide,
        body: schemas.ServiceAccountBody,
        response: { 201: Envelope(schemas.Person), ...errorResponses() },
      },
      config: signedIn,
    },
    async (request, reply) => {
      reply.code(201);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => people.createServiceAccount(tx, principalOf(request), request.body),
        ok,
      );
    },
  );

  app.get(
    '/api/console/tokens/',
    {
      schema: { hide, response: { 200: Envelope(Type.Array(schemas.Token)), ...errorResponses() } },
      config: signedIn,
    },
    async (request) => ok(await tokens.listTokens(ctx, principalOf(request))),
  );

  app.post(
    '/api/console/tokens/',
    {
      schema: {
        hide,
        body: schemas.TokenBody,
        response: { 201: Envelope(schemas.CreatedToken), ...errorResponses(404) },
      },
      config: signedInSecret,
    },
    async (request, reply) => {
      reply.code(201);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => tokens.createConsoleToken(tx, principalOf(request), request.body),
        ok,
      );
    },
  );

  app.delete(
    '/api/console/tokens/:id/',
    {
      schema: { hide, params: IdParams, response: { ...noContent, ...errorResponses(404) } },
      config: signedIn,
    },
    async (request, reply) =>
      commitNoContent(ctx, reply, (tx) => tokens.revokeConsoleToken(tx, principalOf(request), request.params.id)),
  );
}
