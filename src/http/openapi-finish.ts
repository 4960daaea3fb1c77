import { ERROR_CODES, type ErrorCode } from './errors.ts';
import { operationIdOf } from './operation-ids.ts';

/**
 * What every operation of the published document has in common, added in one place after
 * @fastify/swagger has built it from the route schemas: operation ids, declared tags, the
 * `Idempotency-Key` parameter, the response headers and the error statuses that the HTTP layer
 * (not the route) answers, and one error schema per status whose `code` lists the codes of
 * ERROR_CODES with that status.
 */

/** Every tag a published route uses, with its description; a route with another tag fails the build. */
const TAGS: Record<string, string> = {
  Access: 'The calling token: its account, organization, scopes and visible projects.',
  Notifications:
    "The caller's notifications (assigned, mentioned, commented, ...) and how it wants to be told (docs/api/notifications.md).",
  Projects:
    'Projects, addressed by id or key. A new project comes with default statuses, task types, priorities and a workflow.',
  Memberships: 'Who belongs to a project, with role admin, member or viewer. A project always keeps one admin.',
  Tasks:
    'Tasks, addressed by key (`WEB-12`): create, update, status changes along the workflow, bulk writes, subtasks, assignment, followers and activity.',
  Comments: 'Markdown comments on a task; only the author edits.',
  Attachments: 'Files attached to a task: multipart upload, download with the stored content type.',
  'Time entries': 'Minutes logged on a task by the calling account.',
  Links: 'Dependency links between tasks (blocks, relates_to, duplicates), stored once and read from either side.',
  'Custom fields': 'Workspace-defined task fields, their options and option order.',
  Workflows: 'Statuses, transitions and workflows: which status changes a project allows.',
  Labels: 'Per-project labels; tasks carry them by name.',
  Milestones: 'Per-project milestones with a due date and state.',
  Sprints: 'Per-project sprints; at most one is active.',
  Reports:
    'Reports computed from the activity history, at any past instant (`as_of`): burndown, cumulative flow, cycle time, velocity; JSON or CSV.',
  Webhooks:
    'Signed event deliveries: endpoints, the event catalog, delivery history, replay and signature verification.',
  Standups: 'Daily written check-ins, the team list, blockers, worklists and settings.',
  Search: 'Full-text search over the tasks the token can see.',
  Views: 'Saved views: a named query and how to show its tasks, private or shared (docs/api/views.md).',
  'Changes feed': 'Incremental task sync, deletions included.',
};

type Json = Record<string, unknown>;
type Operation = Json & { responses: Record<string, Json>; parameters?: Json[]; tags?: string[]; requestBody?: Json };

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing, invalid, expired or revoked token',
  403: 'The token lacks the scope, or the role forbids the action',
  404: 'Unknown resource, or one the caller cannot see',
  405: 'The path exists, but not with this method',
  409: 'Conflict with the current state',
  412: 'If-Match no longer matches',
  413: 'The body is larger than the limit',
  415: 'Unsupported Content-Type',
  422: 'Refused by a business rule',
  429: 'Rate limited; retry after Retry-After seconds',
  500: 'Unexpected failure; quote details.request_id',
  503: 'Shutting down or the database is unreachable; retry shortly',
};

const HEADERS: Record<string, Json> = {
  XRequestId: {
    description: 'The request id (a well-formed incoming X-Request-Id is kept); logged with the request.',
    schema: { type: 'string' },
  },
  RateLimitLimit: {
    description: 'Requests allowed in the window of the tier closest to its limit.',
    schema: { type: 'integer' },
  },
  RateLimitRemaining: { description: 'Requests left in that window.', schema: { type: 'integer' } },
  RateLimitReset: { description: 'Seconds until that window resets.', schema: { type: 'integer' } },
  RetryAfter: { description: 'Seconds to wait before retrying.', required: true, schema: { type: 'integer' } },
  IdempotentReplayed: {
    description: '`true` when this is the stored response of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const headerRef = (name: string): Json => ({ $ref: `#/components/headers/${name}` });

/** Error codes by HTTP status, from the one catalog. */
function codesByStatus(): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const [code, entry] of Object.entries(ERROR_CODES) as Array<
    [ErrorCode, { status: number; consoleOnly?: boolean }]
  >) {
    if (entry.consoleOnly) continue;
    byStatus.set(entry.status, [...(byStatus.get(entry.status) ?? []), code]);
  }
  return byStatus;
}

function errorSchema(status: number, codes: ErrorCode[]): Json {
  return {
    title: `Error${status}`,
    type: 'object',
    required: ['success', 'error'],
    properties: {
      success: { type: 'boolean', enum: [false] },
      error: {
        type: 'object',
        required: ['code', 'message', 'details'],
        properties: {
          code: { type: 'string', enum: codes, description: 'Stable UPPER_SNAKE error code.' },
          message: { type: 'string', description: 'Human-readable explanation.' },
          details: { type: 'object', additionalProperties: true, description: 'Structured context; always an object.' },
        },
      },
    },
  };
}

function errorResponse(status: number): Json {
  return {
    description: STATUS_TEXT[status] ?? 'Error',
    content: { 'application/json': { schema: { $ref: `#/components/schemas/Error${status}` } } },
  };
}

function withHeaders(response: Json, headers: Record<string, Json>): Json {
  return { ...response, headers: { ...headers, ...(response.headers as Json | undefined) } };
}

export function finishDocument(document: Json): Json {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  const byStatus = codesByStatus();
  const usedTags = new Set<string>();
  const usedStatuses = new Set<number>();

  for (const [path, operations] of Object.entries(paths)) {
    const methods = Object.keys(operations);
    for (const [method, operation] of Object.entries(operations)) {
      operation.operationId = operationIdOf(method, path, methods);
      for (const tag of operation.tags ?? []) usedTags.add(tag);
      const authenticated = Array.isArray(operation.security) && operation.security.length > 0;

      const statuses = new Set([400, 500, 503]);
      if (authenticated) for (const status of [401, 403, 429]) statuses.add(status);
      if (path.includes('{')) statuses.add(404);
      if (BODY_METHODS.has(method)) for (const status of [413, 415]) statuses.add(status);
      if (method === 'post') {
        statuses.add(409);
        operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/IdempotencyKey' }];
      }

      for (const status of statuses) operation.responses[String(status)] ??= {};
      for (const [key, response] of Object.entries(operation.responses)) {
        const status = Number(key);
        const headers: Record<string, Json> = { 'X-Request-Id': headerRef('XRequestId') };
        if (authenticated && status !== 401) {
          Object.assign(headers, {
            'RateLimit-Limit': headerRef('RateLimitLimit'),
            'RateLimit-Remaining': headerRef('RateLimitRemaining'),
            'RateLimit-Reset': headerRef('RateLimitReset'),
          });
        }
        if (status === 429) headers['Retry-After'] = headerRef('RetryAfter');
        if (method === 'post' && status < 500) headers['Idempotent-Replayed'] = headerRef('IdempotentReplayed');
        const base =
          status >= 400
            ? { ...errorResponse(status), ...(response.description ? { description: response.description } : {}) }
            : response;
        if (status >= 400) usedStatuses.add(status);
        operation.responses[key] = withHeaders(base, headers);
      }
    }
  }

  const undeclared = [...usedTags].filter((tag) => !TAGS[tag]);
  if (undeclared.length)
    throw new Error(
      `OpenAPI tags without a description: ${undeclared.join(', ')} (add them to src/http/openapi-finish.ts)`,
    );

  const components = (document.components ?? {}) as Json & { schemas?: Json };
  const schemas = { ...components.schemas } as Json;
  delete schemas.Error;
  for (const status of [...usedStatuses].sort()) {
    const codes = byStatus.get(status);
    if (!codes) throw new Error(`No error code of ERROR_CODES has status ${status}`);
    schemas[`Error${status}`] = errorSchema(status, codes);
  }

  return {
    ...document,
    tags: Object.entries(TAGS)
      .filter(([name]) => usedTags.has(name))
      .map(([name, description]) => ({ name, description })),
    components: {
      ...components,
      schemas,
      headers: HEADERS,
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes the POST safe to retry: the same key with the same request replays the stored response (`Idempotent-Replayed: true`); with a different request, or while the first is still running, 409 CONFLICT. 1-255 printable ASCII characters; kept 24 hours per token. Derive it from what is being created.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
        },
      },
    },
  };
}
