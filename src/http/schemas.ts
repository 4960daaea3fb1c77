import { Type, type TRefUnsafe, type TSchema } from '@sinclair/typebox';

/** Building blocks shared by every route schema, so the OpenAPI document is uniform. */
export const ErrorResponse = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      code: Type.String({ description: 'Stable UPPER_SNAKE error code.' }),
      message: Type.String({ description: 'Human-readable explanation.' }),
      details: Type.Record(Type.String(), Type.Unknown(), { description: 'Structured context; always an object.' }),
    }),
  },
  { $id: 'Error', title: 'Error' },
);

export const Timestamp = Type.String({
  format: 'date-time',
  description: 'ISO 8601 UTC with microseconds, e.g. 2026-11-21T10:15:30.123456Z',
});

/** A display name (statuses, workflows, labels...): 1-100 characters, no leading or trailing whitespace. */
export const DisplayName = Type.String({ minLength: 1, maxLength: 100, pattern: '^\\S(.*\\S)?$' });

/** A calendar date, `YYYY-MM-DD`. */
export const DateString = Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', examples: ['2026-12-01'] });

export const OffsetPagination = Type.Object(
  { count: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() },
  { $id: 'OffsetPagination', title: 'OffsetPagination', description: 'Offset mode (the default).' },
);
export const CursorPagination = Type.Object(
  {
    limit: Type.Integer(),
    next_cursor: Type.String({
      description: 'Opaque; pass back as `cursor`. Always present, so a walk can resume later.',
    }),
    has_more: Type.Boolean(),
  },
  {
    $id: 'CursorPagination',
    title: 'CursorPagination',
    description: 'Cursor mode, entered by sending `cursor` (empty to start).',
  },
);

export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ success: Type.Literal(true), data });
}

export function ListEnvelope<T extends TSchema>(item: T) {
  return Type.Object({
    success: Type.Literal(true),
    data: Type.Array(item),
    pagination: Type.Union([Type.Ref(OffsetPagination), Type.Ref(CursorPagination)], {
      description: 'OffsetPagination unless the request sent `cursor`, then CursorPagination.',
    }),
  });
}

export const PaginationQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'Page size, default 50, maximum 200.' })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'Alias of `limit`.' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, description: 'Offset mode: rows to skip.' })),
  page: Type.Optional(
    Type.Integer({ minimum: 1, description: 'Offset mode: 1-based page number (offset = (page-1) × limit).' }),
  ),
  cursor: Type.Optional(
    Type.String({ maxLength: 200, description: 'Enters cursor mode (primary key ascending). Send empty to start.' }),
  ),
  ordering: Type.Optional(
    Type.String({ maxLength: 200, description: 'Offset mode: comma-separated fields, `-` prefix for descending.' }),
  ),
};

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (VALIDATION_ERROR, MALFORMED_JSON)',
  401: 'Missing, invalid, expired or revoked token (UNAUTHENTICATED)',
  403: 'Token lacks the scope (INSUFFICIENT_SCOPE) or the role forbids the action (FORBIDDEN)',
  404: 'Unknown resource, or one the caller cannot see (NOT_FOUND)',
  409: 'Conflict with the current state',
  412: 'If-Match no longer matches (PRECONDITION_FAILED)',
  410: 'Records the request needs are gone; start again (RESYNC_REQUIRED, EVENTS_EXPIRED)',
  413: 'Body too large (PAYLOAD_TOO_LARGE)',
  422: 'Refused by a business rule',
  429: 'Rate limited (RATE_LIMITED); see Retry-After',
};

/** Standard error responses every authenticated route can return, plus the route's own. */
export function errorResponses(...statuses: number[]): Record<number, TRefUnsafe<typeof ErrorResponse>> {
  const all = [...new Set([400, 401, 403, 429, ...statuses])].sort((a, b) => a - b);
  return Object.fromEntries(
    all.map((status) => [status, Type.Ref(ErrorResponse, { description: ERROR_DESCRIPTIONS[status] ?? 'Error' })]),
  );
}
