import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError, type ErrorCode, errorBody, reflected, reflectedFields } from './errors.ts';
import { routeHints } from './route-hints.ts';
import { settleUnconfirmedAuth } from '../identity/auth-hook.ts';
import { isConnectionError } from '../db/connection-health.ts';

export interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `/tasks/0/title` -> `tasks[0].title`, the way integrators write field paths. */
function fieldPath(instancePath: string, child?: unknown): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (typeof child === 'string') parts.push(child);
  return parts.reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

export function validationFields(issues: AjvIssue[]): Record<string, string> {
  // No prototype: a field named `constructor`, `toString` or `__proto__` is a key like any other.
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const issue of issues) {
    if (issue.keyword === 'required') {
      fields[fieldPath(issue.instancePath, issue.params.missingProperty)] ??= 'is required';
    } else if (issue.keyword === 'additionalProperties') {
      fields[fieldPath(issue.instancePath, issue.params.additionalProperty)] ??= 'is not a known field';
    } else {
      fields[fieldPath(issue.instancePath) || '(root)'] ??= issue.message ?? 'is invalid';
    }
  }
  return reflectedFields(fields);
}

/** The code of a 4xx raised by Fastify or a plugin (e.g. @fastify/static's 403), so status and code agree. */
const CODE_OF_STATUS: Record<number, ErrorCode> = {
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

const PARSER_ERRORS: Record<string, [code: string, status: number, message: string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['UNSUPPORTED_MEDIA_TYPE', 415, 'Unsupported Content-Type. Send application/json.'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['PAYLOAD_TOO_LARGE', 413, 'The request body is too large.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['VALIDATION_ERROR', 400, 'Content-Length does not match the body.'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['MALFORMED_JSON', 400, 'The body is not valid JSON.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['MALFORMED_JSON', 400, 'The body is empty but Content-Type is application/json.'],
};

/** Every failure leaves in the error envelope (docs/api/errors.md); internals are logged, never returned. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(async (thrown: FastifyError, request, reply) => {
    // A cached principal not yet confirmed is checked first: access that is gone answers 401 or 403.
    const error = ((await settleUnconfirmedAuth(request)) as FastifyError | undefined) ?? thrown;
    if (error instanceof ApiError) {
      // RFC 6750: a 401 names the scheme the client must use.
      if (error.status === 401) reply.header('www-authenticate', 'Bearer realm="tasktracker"');
      // A refusal that says when to come back (a full password-hashing queue, a rate limit) says so in the header too.
      if (typeof error.details.retry_after === 'number') reply.header('retry-after', String(error.details.retry_after));
      return reply.code(error.status).send(errorBody(error.code, error.message, error.details));
    }
    if (error.validation) {
      const fields = validationFields(error.validation as AjvIssue[]);
      const location = error.validationContext ?? 'request';
      return reply.code(400).send(
        errorBody('VALIDATION_ERROR', `Invalid ${location}: ${Object.keys(fields).join(', ')}.`, {
          location,
          fields,
        }),
      );
    }
    const known = error.code ? PARSER_ERRORS[error.code] : undefined;
    if (known) return reply.code(known[1]).send(errorBody(known[0], known[2]));
    if (
      error instanceof SyntaxError ||
      (error.statusCode === 400 && /JSON|prototype|constructor/i.test(error.message))
    ) {
      return reply.code(400).send(errorBody('MALFORMED_JSON', 'The body is not valid JSON.'));
    }
    if (error.statusCode === 503) {
      return reply.code(503).send(errorBody('SERVICE_UNAVAILABLE', 'The service is unavailable; retry shortly.'));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const code = CODE_OF_STATUS[error.statusCode];
      return code
        ? reply.code(error.statusCode).send(errorBody(code, 'The request could not be processed.'))
        : reply.code(400).send(errorBody('VALIDATION_ERROR', 'The request could not be processed.'));
    }
    // The database connection failed, not the request: the pool logs the outage once (src/db/connection-health.ts).
    if (isConnectionError(error)) {
      return reply
        .code(503)
        .header('retry-after', '1')
        .send(errorBody('SERVICE_UNAVAILABLE', 'The database is not reachable; retry shortly.'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(
      errorBody('INTERNAL_ERROR', `Unexpected error. Quote request id ${request.id} when reporting it.`, {
        request_id: request.id,
      }),
    );
  });

  // Every path ends with a slash. A request without it gets a 404 naming the right path rather
  // than a redirect: a redirect would hide the mistake in the integrator's code, double every
  // request, and could not be followed safely for writes anyway (docs/api/conventions.md, "Trailing slashes").
  const hint = routeHints(app);
  app.setNotFoundHandler((request, reply) => {
    const path = reflected(request.url.split('?')[0] ?? '');
    const found = hint(request.method, request.url);
    if (found?.kind === 'slash') {
      return reply
        .code(404)
        .send(
          errorBody(
            'NOT_FOUND',
            `No route ${request.method} ${path}. Paths end with a slash: ${request.method} ${found.path}`,
            { path: found.path },
          ),
        );
    }
    if (found?.kind === 'method') {
      return reply
        .code(405)
        .header('allow', found.allow.join(', '))
        .send(
          errorBody(
            'METHOD_NOT_ALLOWED',
            `${path} does not accept ${request.method}; it accepts ${found.allow.join(', ')}.`,
            { allow: found.allow },
          ),
        );
    }
    return reply.code(404).send(errorBody('NOT_FOUND', `No route ${request.method} ${path}.`));
  });
}
