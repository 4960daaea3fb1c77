/**
 * The one error type services throw, and the one list of error codes that feeds both the
 * HTTP error handler and the published OpenAPI document (which leaves out the codes only the
 * console API answers).
 */
export const ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, description: 'The request is invalid. `details` names each bad field.' },
  MALFORMED_JSON: { status: 400, description: 'The body is not valid JSON.' },
  INVALID_QUERY: {
    status: 400,
    description:
      "A query (`q`, a view's `query`, a webhook `filter`) cannot be run: `details.position` is the 0-based character offset of the problem, `details.expected` lists what would have been valid there.",
  },
  UNAUTHENTICATED: { status: 401, description: 'Missing, invalid, expired or revoked bearer token or session.' },
  INVALID_CREDENTIALS: {
    status: 401,
    description: 'Sign-in refused: wrong e-mail or password (the same answer when no such account exists).',
    consoleOnly: true,
  },
  INSUFFICIENT_SCOPE: { status: 403, description: 'The token lacks the scope named in `details.required`.' },
  CSRF_FAILED: {
    status: 403,
    description:
      'A session-authenticated request that changes something lacks the X-CSRF-Token header or comes from another Origin; nothing changed.',
  },
  FORBIDDEN: { status: 403, description: 'The resource is visible but the caller may not perform this action.' },
  NOT_FOUND: { status: 404, description: 'Unknown resource, or one the caller cannot see.' },
  METHOD_NOT_ALLOWED: { status: 405, description: 'The path exists but not with this method.' },
  CONFLICT: {
    status: 409,
    description: 'Idempotency key reused with a different request, or while the first is running.',
  },
  ALREADY_EXISTS: { status: 409, description: 'A resource with the same unique value exists (`details.field`).' },
  LAST_ADMIN: { status: 409, description: 'The change would leave the project without an admin.' },
  LAST_OWNER: {
    status: 409,
    description: 'The change would leave the organization without an active owner.',
    consoleOnly: true,
  },
  STATUS_IN_USE: { status: 409, description: 'The status is referenced by tasks (`details.task_count`).' },
  STATUS_IS_DEFAULT: {
    status: 409,
    description: "The status is the project's default for new tasks; change the default first.",
  },
  WORKFLOW_IN_USE: { status: 409, description: "The workflow is the project's active one; activate another first." },
  ACTIVE_SPRINT_EXISTS: { status: 409, description: 'The project already has an active sprint (`details.sprint`).' },
  STANDUP_ALREADY_SUBMITTED: {
    status: 409,
    description: "Today's standup entry is submitted; only PUT /standups/me/ changes it now.",
  },
  DUPLICATE_LINK: { status: 409, description: 'The link, or its mirror, already exists.' },
  ENDPOINT_DISABLED: {
    status: 409,
    description: 'The webhook endpoint is disabled; re-enable it with PATCH {"enabled": true} first.',
  },
  DELIVERY_PENDING: {
    status: 409,
    description: 'The delivery is still being attempted; replay it once it is delivered or failed.',
  },
  OPTION_IN_USE: {
    status: 409,
    description: 'Custom field options that tasks hold cannot be deleted (`details.task_count`, `details.options`).',
  },
  FIELD_IN_USE: {
    status: 409,
    description:
      'The custom field cannot stop applying to projects whose tasks hold values of it (`details.task_count`).',
  },
  RESYNC_REQUIRED: {
    status: 410,
    description:
      'The changes feed no longer holds every change the walk needs (its `since` is before `details.purged_before`, or retention removed deletion records during the walk): drop your copy and walk the feed again from the start, without `since`.',
  },
  EVENTS_EXPIRED: {
    status: 410,
    description:
      'The event stream no longer holds what follows the resume point (`details.after`, older than `details.window_hours`): connect again without one and catch up from the API.',
  },
  PRECONDITION_FAILED: { status: 412, description: 'The `If-Match` header no longer matches the resource.' },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The body exceeds the size limit.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'The Content-Type is not accepted by this endpoint.' },
  INVALID_TRANSITION: {
    status: 422,
    description: 'The workflow has no transition between `details.from` and `details.to`.',
  },
  DEPENDENCY_CYCLE: { status: 422, description: 'The link would close a loop; `details.path` lists it.' },
  SCHEDULE_CONFLICT: {
    status: 422,
    description:
      'The task would start before the due date of an open task that blocks it; `details.blockers` lists them (`key`, `title`, `due_date`). Send `force: true` to write it anyway.',
  },
  RATE_LIMITED: { status: 429, description: 'A rate limit is exhausted; retry after `Retry-After` seconds.' },
  INTERNAL_ERROR: { status: 500, description: 'Unexpected failure. Safe to retry; nothing internal is disclosed.' },
  SERVICE_UNAVAILABLE: { status: 503, description: 'The service is shutting down or a dependency is down.' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export type ErrorDetails = Record<string, unknown>;

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.details = details;
  }
}

export const notFound = (what = 'Resource'): ApiError => new ApiError('NOT_FOUND', `${what} not found.`);

/** What a repository lookup found; nothing found is a 404 naming `what`. */
export async function foundOr404<T>(lookup: Promise<T | undefined>, what: string): Promise<T> {
  const found = await lookup;
  if (!found) throw notFound(what);
  return found;
}

export const forbidden = (message: string): ApiError => new ApiError('FORBIDDEN', message);

/** Longest piece of a caller's input (a field name, a path) an error repeats back. */
export const MAX_REFLECTED_CHARS = 200;

/** Input echoed in an error is cut short, so a huge field name is not answered with a huge error. */
export function reflected(text: string): string {
  return text.length > MAX_REFLECTED_CHARS ? `${text.slice(0, MAX_REFLECTED_CHARS)}…` : text;
}

/** Field names cut short (see reflected); keys are kept own properties whatever their name. */
export function reflectedFields(fields: Record<string, string>): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const [name, reason] of Object.entries(fields)) out[reflected(name)] ??= reason;
  return out;
}

/** A 400 naming one or more bad fields: `{ fields: { name: reason } }`. */
export const invalid = (fields: Record<string, string>, message?: string): ApiError => {
  const named = reflectedFields(fields);
  return new ApiError('VALIDATION_ERROR', message ?? `Invalid ${Object.keys(named).join(', ')}.`, { fields: named });
};

export interface ErrorBody {
  success: false;
  error: { code: string; message: string; details: ErrorDetails };
}

export function errorBody(code: string, message: string, details: ErrorDetails = {}): ErrorBody {
  return { success: false, error: { code, message, details } };
}
