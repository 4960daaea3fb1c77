import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import secureJson from 'secure-json-parse';
import { sql } from 'kysely';
import type { AppContext } from './context.ts';
import { registerAuth } from './http/auth-hook.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { ApiError, errorBody } from './http/errors.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { registerMetrics } from './http/metrics.ts';
import { openApiOptions } from './http/openapi.ts';
import { RateLimits } from './http/rate-limit.ts';
import { ErrorResponse } from './http/schemas.ts';
import { registerValidators } from './http/validation.ts';
import { registerRoutes } from './routes.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface BuildAppOptions {
  /** A pino logger to share (the CLI passes one so API and worker log alike); false silences logs. */
  logger?: FastifyBaseLogger | false;
}

const REDACT = { paths: ['req.headers.authorization', 'req.headers["idempotency-key"]'], censor: '[redacted]' };

/** Builds the HTTP application without listening, so tests drive it with `inject`. */
export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger
      ? { loggerInstance: options.logger }
      : { logger: options.logger === false ? false : { level: ctx.config.logLevel, redact: REDACT } }),
    bodyLimit: ctx.config.bodyLimitBytes,
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    // An incoming X-Request-Id is kept when it is well formed, so traces join across services.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    return503OnClosing: true,
  });

  const limits = new RateLimits(ctx.config);
  app.addHook('onClose', () => limits.close());

  registerValidators(app);
  registerErrorHandling(app);
  app.addSchema(ErrorResponse);

  // Empty bodies are allowed on action endpoints (follow, skip...); prototype-polluting keys are refused.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      done(new ApiError('MALFORMED_JSON', 'The body is not valid JSON (or uses a forbidden key such as __proto__).'), undefined);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
  });

  await app.register(swagger, openApiOptions(ctx));
  await app.register(swaggerUi, { routePrefix: '/docs' });

  registerMetrics(app, ctx.config.metricsToken);
  registerAuth(app, ctx, limits);
  registerIdempotency(app, ctx);

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(ctx.db);
      return { status: 'ok' };
    } catch {
      return reply.code(503).send(errorBody('SERVICE_UNAVAILABLE', 'The database is not reachable.'));
    }
  });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  registerRoutes(app, ctx);
  return app;
}
