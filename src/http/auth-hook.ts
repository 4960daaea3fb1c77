import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { AuthCache, principalForRequest } from '../modules/auth/auth-cache.ts';
import { recordGrantsFor } from '../policy/index.ts';
import { recordTokenUse } from '../modules/auth/auth.repository.ts';
import { requireScope } from '../modules/auth/auth.service.ts';
import type { Principal } from '../modules/auth/principal.ts';
import type { Scope } from '../modules/auth/scopes.ts';
import { ApiError } from './errors.ts';
import { authenticateSession, sessionTokenOf } from './session-auth.ts';
import { type Bucket, RateLimitedError, type RateLimits, rateLimitHeaders } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope the route needs (README "API conventions"), or 'authenticated' for any valid token. Absent: public route. */
    scope?: Scope | 'authenticated';
    /** Which rate-limit bucket the route draws from; default 'default'. */
    bucket?: Bucket;
    /** A console route: only a signed-in person's session cookie authenticates it, never a bearer token. */
    console?: boolean;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
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
    const { scope, console: consoleRoute } = request.routeOptions.config;
    if (!scope && !consoleRoute) return;
    const bearer = request.headers.authorization !== undefined;
    if (consoleRoute && bearer) {
      throw new ApiError('UNAUTHENTICATED', 'The console needs a signed-in person: sign in and send the session cookie, not a bearer token.');
    }
    let principal: Principal;
    if (consoleRoute || (!bearer && sessionTokenOf(request))) {
      principal = await authenticateSession(ctx, request);
    } else {
      principal = principalForRequest(await tokens.authenticate(ctx.clock, request.headers.authorization));
      await usage.record(principal.tokenId);
    }
    recordGrantsFor(principal);
    request.principal = principal;
    try {
      const caller = principal.sessionId ? `s${principal.sessionId}` : `t${principal.tokenId}`;
      const state = await limits.consume(request.routeOptions.config.bucket ?? 'default', caller, principal.organizationId);
      reply.headers(rateLimitHeaders(state));
    } catch (error) {
      if (error instanceof RateLimitedError) {
        reply.headers({ ...rateLimitHeaders(error.state), 'retry-after': String(error.state.resetSeconds) });
      }
      throw error;
    }
    if (scope && scope !== 'authenticated') requireScope(principal, scope);
  });
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
