import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { isAgentCall } from './agent-calls.ts';
import { AuthCache, principalForRequest as ownPrincipal } from './auth-cache.ts';
import { can, recordGrantsFor, WORKSPACE } from '../policy/index.ts';
import { recordTokenUse } from './auth.repository.ts';
import { requireScope } from './auth.service.ts';
import type { Principal } from './principal.ts';
import type { Scope } from './scopes.ts';
import { ApiError } from '../http/errors.ts';
import { authenticateSession, sessionTokenOf } from './session-auth.ts';
import { type Bucket, RateLimitedError, type RateLimits, rateLimitHeaders } from '../http/rate-limit.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope the route needs (docs/api/conventions.md, "Scopes"), or 'authenticated' for any valid token. Absent: public route. */
    scope?: Scope | 'authenticated';
    /** Which rate-limit bucket the route draws from; default 'default'. */
    bucket?: Bucket;
    /** A console route: only a signed-in person's session cookie authenticates it, never a bearer token. */
    console?: boolean;
    /** The handler reads the auth epoch in its own statement and passes it to `confirmedPrincipal`. */
    authEpochInRead?: boolean;
  }
  interface FastifyRequest {
    principal?: Principal;
    /** A cached principal used before its epoch was read (see confirmedPrincipal). */
    unconfirmedAuth?: UnconfirmedAuth;
  }
}

interface UnconfirmedAuth {
  /** The epoch the cached principal was loaded under. */
  epoch: number;
  /** Authenticates from the database, as for any other route, and checks the scope again. */
  authenticateAgain(): Promise<Principal>;
}

/**
 * Authentication, rate limiting and the scope check, in that order, before the body is even
 * parsed: every authenticated request counts toward the limits, a refused one (403) included.
 * A bearer token wins over a session cookie; a cookie alone authenticates as its person
 * (with the CSRF checks of session-auth.ts).
 */
export function registerAuth(app: FastifyInstance, ctx: AppContext, limits: RateLimits): void {
  const tokens = new AuthCache(ctx.db);
  const usage = new TokenUsage(ctx);
  app.addHook('onRequest', async (request, reply) => {
    const { scope, console: consoleRoute, authEpochInRead } = request.routeOptions.config;
    if (!scope && !consoleRoute) return;
    const header = request.headers.authorization;
    if (consoleRoute && header !== undefined) {
      throw new ApiError(
        'UNAUTHENTICATED',
        'The console needs a signed-in person: sign in and send the session cookie, not a bearer token.',
      );
    }
    let principal: Principal;
    if (consoleRoute || (header === undefined && sessionTokenOf(request))) {
      principal = await authenticateSession(ctx, request);
    } else {
      // A route that reads the epoch with its data uses a cached principal at once; the
      // handler confirms it (or authenticates again) once that epoch is read.
      const cached = authEpochInRead ? tokens.cached(ctx.clock, header) : undefined;
      if (cached) {
        const authenticateAgain = async () => {
          const fresh = principalForRequest(await tokens.authenticate(ctx.clock, header));
          recordGrantsFor(fresh);
          fresh.request = { id: request.id, address: request.ip };
          request.principal = fresh;
          if (scope && scope !== 'authenticated') requireScope(fresh, scope);
          return fresh;
        };
        request.unconfirmedAuth = { epoch: cached.epoch, authenticateAgain };
        principal = principalForRequest(cached.principal);
      } else {
        principal = principalForRequest(await tokens.authenticate(ctx.clock, header));
      }
      await usage.record(principal.tokenId);
    }
    recordGrantsFor(principal);
    principal.request = { id: request.id, address: request.ip };
    request.principal = principal;
    try {
      const state = await limits.consume(request.routeOptions.config.bucket ?? 'default', {
        credential: principal.sessionId ? `s${principal.sessionId}` : `t${principal.tokenId}`,
        accountId: principal.userId,
        organizationId: principal.organizationId,
        // Whoever manages people keeps a console when the organization's budget is spent.
        burstOnly: consoleRoute === true && can(principal, 'people.manage', WORKSPACE),
      });
      reply.headers(rateLimitHeaders(state));
    } catch (error) {
      if (error instanceof RateLimitedError) {
        reply.headers({ ...rateLimitHeaders(error.state), 'retry-after': String(error.state.resetSeconds) });
      }
      throw error;
    }
    if (scope && scope !== 'authenticated') {
      // A cached principal refused a scope is confirmed first: it may be out of date.
      if (request.unconfirmedAuth) {
        try {
          requireScope(principal, scope);
        } catch {
          const error = await settleUnconfirmedAuth(request);
          if (error) throw error;
        }
      } else requireScope(principal, scope);
    }
  });

  // Fails closed: a route that reads the epoch itself must confirm it before answering.
  const confirmedBeforeSending = async (request: FastifyRequest) => {
    if (request.unconfirmedAuth)
      throw new Error(`${request.routeOptions.url} answered without confirming its cached principal`);
  };
  app.addHook('onRoute', (route) => {
    if (!route.config?.authEpochInRead) return;
    const own = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...own, confirmedBeforeSending];
  });
}

/**
 * The caller as of `authEpoch`, read by the handler in the same statement as its data: the
 * cached principal when it was loaded under that epoch, otherwise the caller authenticated
 * again from the database (a 401 or 403 when access is gone).
 */
export async function confirmedPrincipal(request: FastifyRequest, authEpoch: number): Promise<Principal> {
  const pending = request.unconfirmedAuth;
  if (!pending) return principalOf(request);
  request.unconfirmedAuth = undefined;
  return authEpoch === pending.epoch ? principalOf(request) : pending.authenticateAgain();
}

/**
 * For a request that fails before its handler confirmed a cached principal (a bad parameter,
 * say): authenticates it again, so an out-of-date token still gets its 401 first. Returns that
 * error, if any.
 */
export async function settleUnconfirmedAuth(request: FastifyRequest): Promise<unknown> {
  const pending = request.unconfirmedAuth;
  if (!pending) return undefined;
  request.unconfirmedAuth = undefined;
  try {
    await pending.authenticateAgain();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** A principal of the request's own; a request the MCP server makes for an agent is the agent's (agent-calls.ts). */
function principalForRequest(principal: Principal): Principal {
  const own = ownPrincipal(principal);
  if (isAgentCall()) own.source = 'agent';
  return own;
}

/** The authenticated caller; routes with a scope always have one. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new ApiError('UNAUTHENTICATED', 'Authentication required.');
  return request.principal;
}

/** Each token's last use, written at most once a minute per token and process (the console lists it). */
class TokenUsage {
  private readonly written = new Map<number, number>();

  constructor(private readonly ctx: AppContext) {}

  async record(tokenId: number): Promise<void> {
    const nowMs = this.ctx.clock.nowMs();
    const last = this.written.get(tokenId);
    if (last !== undefined && nowMs - last < 60_000) return;
    this.written.set(tokenId, nowMs);
    if (this.written.size > 10_000) this.written.delete(this.written.keys().next().value!);
    await recordTokenUse(this.ctx.db, tokenId, this.ctx.clock.nowIso());
  }
}
