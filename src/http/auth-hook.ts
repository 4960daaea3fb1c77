import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { AuthCache, principalForRequest } from '../modules/auth/auth-cache.ts';
import { recordGrantsFor } from '../policy/index.ts';
import { requireScope } from '../modules/auth/auth.service.ts';
import type { Principal } from '../modules/auth/principal.ts';
import type { Scope } from '../modules/auth/scopes.ts';
import { ApiError } from './errors.ts';
import { type Bucket, RateLimitedError, type RateLimits, rateLimitHeaders } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope the route needs (spec 5), or 'authenticated' for any valid token. Absent: public route. */
    scope?: Scope | 'authenticated';
    /** Which rate-limit bucket the route draws from; default 'default'. */
    bucket?: Bucket;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}

/**
 * Authentication, rate limiting and the scope check, in that order, before the body is even
 * parsed: every authenticated request counts toward the limits, a refused one (403) included.
 */
export function registerAuth(app: FastifyInstance, ctx: AppContext, limits: RateLimits): void {
  const tokens = new AuthCache(ctx.db);
  app.addHook('onRequest', async (request, reply) => {
    const scope = request.routeOptions.config.scope;
    if (!scope) return;
    const principal = principalForRequest(await tokens.authenticate(ctx.clock, request.headers.authorization));
    recordGrantsFor(principal);
    request.principal = principal;
    try {
      const state = await limits.consume(request.routeOptions.config.bucket ?? 'default', principal.tokenId, principal.organizationId);
      reply.headers(rateLimitHeaders(state));
    } catch (error) {
      if (error instanceof RateLimitedError) {
        reply.headers({ ...rateLimitHeaders(error.state), 'retry-after': String(error.state.resetSeconds) });
      }
      throw error;
    }
    if (scope !== 'authenticated') requireScope(principal, scope);
  });
}

/** The authenticated caller; routes with a scope always have one. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new ApiError('UNAUTHENTICATED', 'Authentication required.');
  return request.principal;
}
