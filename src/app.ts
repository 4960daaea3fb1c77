import { randomUUID } from 'node:crypto';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import secureJson from 'secure-json-parse';
import { ping } from './db/database.ts';
import type { AppContext } from './context.ts';
import { registerAuth } from './identity/auth-hook.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { ApiError, errorBody, reflected } from './http/errors.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { registerDrain } from './http/drain.ts';
import { fastifyTrustProxy } from './http/trust-proxy.ts';
import { registerMetrics } from './http/metrics.ts';
import { RequestLog } from './http/request-log.ts';
import { openApiOptions, servedDocument } from './http/openapi.ts';
import { RateLimits } from './http/rate-limit.ts';
import { CursorPagination, ErrorResponse, OffsetPagination } from './http/schemas.ts';
import { buildSerializerFactory } from './http/serialization.ts';
import { registerValidators } from './http/validation.ts';
import { registerWebApp } from './http/web-app.ts';
import { LOG_REDACT, LOG_SERIALIZERS } from './logger.ts';
import { registerConsoleRoutes } from './modules/people/console.routes.ts';
import { registerRoutes } from './routes.ts';
import { registerDocsSite } from './http/docs-site.ts';
import { SERVICE_VERSION } from './version.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Invalid UTF-8 is an error, not U+FFFD stored in place of the caller's bytes; a BOM is kept for the JSON parser to judge. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export interface BuildAppOptions {
  /** A pino logger to share (the CLI passes one so API and worker log alike); false silences logs. */
  logger?: FastifyBaseLogger | false;
  /** The built manual to serve at /docs/ (tests build their own); dist/docs-site by default. */
  docsSiteDir?: string;
}

/**
 * Text both databases store as sent: no U+0000 (PostgreSQL text cannot hold it) and no lone
 * surrogate (no UTF-8 form: PostgreSQL would keep one U+FFFD, SQLite three).
 */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what must be found.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const storable = (text: string): boolean => !UNSTORABLE.test(text);

/** No request body needs deeper nesting; deeper ones would exhaust the stack of recursive code (canonical JSON for idempotency). */
const MAX_BODY_DEPTH = 32;

/**
 * Walks a parsed body without recursion: the path (`tasks[0].title`) of the first string or key
 * that is not storable text, or `depth` when nesting exceeds MAX_BODY_DEPTH (recursion here would overflow too).
 */
function bodyProblem(body: unknown): { nul: string } | { depth: true } | null {
  const stack: Array<[value: unknown, path: string, depth: number]> = [[body, '', 0]];
  while (stack.length) {
    const [value, at, depth] = stack.pop()!;
    if (typeof value === 'string') {
      if (!storable(value)) return { nul: at || '(root)' };
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) return { depth: true };
    const entries: Array<[string, unknown]> = Array.isArray(value)
      ? value.map((v, i) => [`${at}[${i}]`, v])
      : Object.entries(value).map(([k, v]) => [at ? `${at}.${k}` : k, v]);
    if (!Array.isArray(value)) {
      const badKey = Object.keys(value).find((k) => !storable(k));
      if (badKey !== undefined) return { nul: at ? `${at}.${badKey}` : badKey };
    }
    for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], entries[i]![0], depth + 1]);
  }
  return null;
}

/** Fastify's settings: logging, body limit, request ids, proxy trust, and the API's error shape for unroutable URLs. */
function fastifyOptions(ctx: AppContext, options: BuildAppOptions) {
  return {
    ...(options.logger
      ? { loggerInstance: options.logger }
      : {
          logger:
            options.logger === false
              ? false
              : { level: ctx.config.logLevel, redact: LOG_REDACT, serializers: LOG_SERIALIZERS },
        }),
    bodyLimit: ctx.config.bodyLimitBytes,
    logController: new RequestLog({ requestIdLogLabel: 'request_id' }),
    // An incoming X-Request-Id is kept when it is well formed, so traces join across services.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    // Behind a TLS-terminating proxy, X-Forwarded-Proto/-Host/-For give the scheme (Secure cookie, own origin) and client address.
    trustProxy: fastifyTrustProxy(ctx.config.trustProxy),
    return503OnClosing: true,
    schemaController: { compilersFactory: { buildSerializer: buildSerializerFactory } },
    // A path Fastify cannot decode (e.g. %ZZ) is answered before any hook: keep the API's error shape (docs/api/conventions.md).
    frameworkErrors: (error, _request, frameworkReply) => {
      const badUrl = error.code === 'FST_ERR_BAD_URL';
      // The option's reply type is generic over every route's schema; this handler answers none of them.
      (frameworkReply as unknown as FastifyReply)
        .code(400)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(
          errorBody(
            'VALIDATION_ERROR',
            badUrl ? 'The URL is not valid percent-encoding.' : 'The request could not be routed.',
            badUrl ? { location: 'url' } : {},
          ),
        );
    },
  } satisfies FastifyServerOptions;
}

/** JSON bodies only, UTF-8, without prototype-polluting keys, U+0000 or excessive nesting. */
function registerJsonBodies(app: FastifyInstance): void {
  // Empty bodies are allowed on action endpoints (follow, skip...); prototype-polluting keys are refused.
  // Only JSON is parsed: any other Content-Type (text/plain included) is 415, never a string body.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      return done(
        new ApiError('UNSUPPORTED_MEDIA_TYPE', 'JSON bodies must be UTF-8 (charset=utf-8, or no charset).', {
          charset: reflected(charset),
        }),
        undefined,
      );
    }
    let text: string;
    try {
      text = UTF8.decode(body as Buffer);
    } catch {
      return done(new ApiError('MALFORMED_JSON', 'The body is not valid UTF-8.'), undefined);
    }
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch (error) {
      // secure-json-parse says which key it refused; name it, as any unknown field is named.
      const key = /forbidden (prototype|constructor) property/.exec(String((error as Error).message))?.[1];
      if (key) {
        const name = key === 'prototype' ? '__proto__' : 'constructor';
        return done(
          new ApiError('MALFORMED_JSON', `The body uses the forbidden key "${name}".`, {
            location: 'body',
            fields: { [name]: 'is not a known field' },
          }),
          undefined,
        );
      }
      return done(new ApiError('MALFORMED_JSON', 'The body is not valid JSON.'), undefined);
    }
    // No field has a use for U+0000 or a lone surrogate, and the databases cannot store them as sent: refused alike on both.
    const problem = bodyProblem(parsed);
    if (problem && 'nul' in problem) {
      return done(
        new ApiError('VALIDATION_ERROR', `Invalid body: ${problem.nul}.`, {
          location: 'body',
          fields: { [problem.nul]: 'must not contain U+0000 or a lone surrogate' },
        }),
        undefined,
      );
    }
    if (problem)
      return done(
        new ApiError('VALIDATION_ERROR', `The body is nested more than ${MAX_BODY_DEPTH} levels deep.`, {
          location: 'body',
        }),
        undefined,
      );
    done(null, parsed);
  });
}

/**
 * The API reference (Swagger UI): its own scripts and styles only (no inline script), the
 * document from this origin, no framing, no validator badge fetched from elsewhere.
 */
const API_REFERENCE_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  // The one inline style Swagger UI applies (tests/browser/api-reference.test.ts notices a new one).
  "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers every response carries, and the URL check that runs before any route. */
function registerResponseHeaders(app: FastifyInstance): void {
  // Pages with a policy of their own (the web app, the manual, the API reference) keep it; any
  // other answer (a redirect, a 404, the manual's "not built" page) still cannot be framed.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('content-security-policy') && !reply.raw.hasHeader('content-security-policy'))
      reply.header('content-security-policy', "frame-ancestors 'none'");
    return payload;
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    if (request.url.startsWith('/api/')) {
      reply.header('cache-control', 'no-store');
      // JSON is never a document to render or frame; /docs/reference/ (Swagger UI) needs scripts, so only /api/.
      reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
      reply.header('x-frame-options', 'DENY');
      reply.header('cross-origin-resource-policy', 'same-origin');
    }
    // No page of the service is meant to be shown inside another site's frame (clickjacking).
    reply.header('x-frame-options', 'DENY');
    // %00 in a path segment or query value would reach PostgreSQL as U+0000, which text cannot hold.
    if (/%00/i.test(request.url)) {
      throw new ApiError('VALIDATION_ERROR', 'Invalid request: the URL contains U+0000.', {
        location: 'url',
        fields: { url: 'must not contain U+0000' },
      });
    }
  });
}

/** Builds the HTTP application without listening, so tests drive it with `inject`. */
export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify(fastifyOptions(ctx, options));

  const limits = new RateLimits(ctx.config, app.log);
  app.addHook('onClose', () => limits.close());

  registerDrain(app);
  registerValidators(app);
  registerErrorHandling(app);
  app.addSchema(ErrorResponse);
  app.addSchema(OffsetPagination);
  app.addSchema(CursorPagination);

  registerJsonBodies(app);
  registerResponseHeaders(app);

  await app.register(swagger, openApiOptions(ctx));
  // The API reference, beside the manual (src/http/docs-site.ts).
  await app.register(swaggerUi, { routePrefix: '/docs/reference', staticCSP: API_REFERENCE_CSP });

  await app.register(cookie);
  registerMetrics(app, ctx.config.metricsToken, ctx.config.metricsPublic);
  registerAuth(app, ctx, limits);
  registerIdempotency(app, ctx);

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok', version: SERVICE_VERSION }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await ping(ctx.database);
      return { status: 'ok', rate_limits: limits.store };
    } catch {
      return reply.code(503).send(errorBody('SERVICE_UNAVAILABLE', 'The database is not reachable.'));
    }
  });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async (request) =>
    servedDocument(
      app.swagger() as unknown as Record<string, unknown>,
      ctx.config.publicBaseUrl,
      `${request.protocol}://${request.host}`,
    ),
  );

  registerRoutes(app, ctx);
  registerConsoleRoutes(app, ctx, limits);
  await registerDocsSite(app, options.docsSiteDir);
  await registerWebApp(app);
  return app;
}
