import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import type { AppContext } from '../context.ts';
import type { Principal } from './principal.ts';
import { csrfTokenOf, type CurrentSession, principalOfSession } from './sessions.service.ts';
import { ApiError } from '../http/errors.ts';

/**
 * The session cookie and its CSRF defence (docs/operating/security.md, "Sessions" and "CSRF"). Over HTTPS (TLS, or
 * TRUST_PROXY with X-Forwarded-Proto: https) the cookie is `__Host-tt_session` with Secure, so
 * no sibling host and no plain-HTTP page can set or read it; over plain HTTP (development) it
 * is `tt_session`. A cookie-authenticated request that may change something must carry the
 * session's CSRF token in X-CSRF-Token and an Origin equal to the service's own.
 */
const PLAIN_NAME = 'tt_session';
const SECURE_NAME = '__Host-tt_session';
export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyRequest {
    /** The session that authenticated the request, if a cookie did. */
    consoleSession?: CurrentSession;
  }
}

const isHttps = (request: FastifyRequest) => request.protocol === 'https';

export function sessionCookieName(request: FastifyRequest): string {
  return isHttps(request) ? SECURE_NAME : PLAIN_NAME;
}

/** The session token the request carries, if any (only the name that fits its scheme counts). */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  const value = request.cookies[sessionCookieName(request)];
  return value ? value : undefined;
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: CurrentSession): void {
  reply.setCookie(sessionCookieName(request), session.token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(request),
    path: '/',
    expires: new Date(session.expires_at),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(sessionCookieName(request), {
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(request),
    path: '/',
  });
}

/** The origins this service answers as: the one the request reached, and PUBLIC_BASE_URL's. */
function ownOrigins(ctx: AppContext, request: FastifyRequest): string[] {
  const origins = [`${request.protocol}://${request.host}`.toLowerCase()];
  if (ctx.config.publicBaseUrl) origins.push(new URL(ctx.config.publicBaseUrl).origin.toLowerCase());
  return origins;
}

/**
 * The base URL of a link shown in the answer to the signed-in person who asked for it (an
 * invitation, a reset link they pass on): PUBLIC_BASE_URL, else the origin their request
 * reached. Never for a link that is e-mailed: see emailedLinkBase in src/mail/links.ts.
 */
export function linkBase(ctx: AppContext, request: FastifyRequest): string {
  return ctx.config.publicBaseUrl
    ? ctx.config.publicBaseUrl.replace(/\/+$/, '')
    : `${request.protocol}://${request.host}`;
}

const csrfFailed = (message: string) => new ApiError('CSRF_FAILED', message);

/**
 * For requests that may change something. `required`: the Origin header must be present
 * (cookie-authenticated requests); otherwise only a foreign Origin is refused (the public
 * sign-in forms, where it stops a foreign page from signing the browser in as someone else).
 */
export function assertSameOrigin(ctx: AppContext, request: FastifyRequest, required: boolean): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.origin;
  if (origin === undefined) {
    if (required) throw csrfFailed('A signed-in request that changes something must carry an Origin header.');
    return;
  }
  if (!ownOrigins(ctx, request).includes(origin.toLowerCase()))
    throw csrfFailed(`The request comes from another origin (${origin}).`);
}

function assertCsrfToken(request: FastifyRequest, sessionToken: string): void {
  if (SAFE_METHODS.has(request.method)) return;
  const sent = request.headers[CSRF_HEADER];
  if (typeof sent !== 'string' || sent === '')
    throw csrfFailed('Missing X-CSRF-Token header: send the csrf_token of the session.');
  const expected = Buffer.from(csrfTokenOf(sessionToken));
  const given = Buffer.from(sent);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw csrfFailed('The X-CSRF-Token header does not match the session.');
}

/** The signed-in person of a request carrying a session cookie, CSRF checked; 401 without a usable session. */
export async function authenticateSession(ctx: AppContext, request: FastifyRequest): Promise<Principal> {
  const token = sessionTokenOf(request);
  if (!token) throw new ApiError('UNAUTHENTICATED', 'Not signed in. Sign in to get a session.');
  const { principal, session } = await principalOfSession(ctx, token);
  assertSameOrigin(ctx, request, true);
  assertCsrfToken(request, token);
  request.consoleSession = session;
  return principal;
}

/** The request's session on a route that requires one. */
export function currentSession(request: FastifyRequest): CurrentSession {
  if (!request.consoleSession) throw new ApiError('UNAUTHENTICATED', 'Not signed in. Sign in to get a session.');
  return request.consoleSession;
}
