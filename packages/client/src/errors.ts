/**
 * Every non-2xx answer becomes an `ApiError` whose `code` and `details` are typed per error
 * code: `isApiError(error, 'INVALID_TRANSITION')` narrows `details` to `{from, to}`.
 */

/** The service's error codes and their HTTP statuses (docs/api/errors.md). */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  MALFORMED_JSON: 400,
  INVALID_QUERY: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  INSUFFICIENT_SCOPE: 403,
  CSRF_FAILED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  ALREADY_EXISTS: 409,
  LAST_ADMIN: 409,
  LAST_OWNER: 409,
  STATUS_IN_USE: 409,
  STATUS_IS_DEFAULT: 409,
  WORKFLOW_IN_USE: 409,
  ACTIVE_SPRINT_EXISTS: 409,
  STANDUP_ALREADY_SUBMITTED: 409,
  DUPLICATE_LINK: 409,
  ENDPOINT_DISABLED: 409,
  DELIVERY_PENDING: 409,
  OPTION_IN_USE: 409,
  FIELD_IN_USE: 409,
  RESYNC_REQUIRED: 410,
  EVENTS_EXPIRED: 410,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INVALID_TRANSITION: 422,
  DEPENDENCY_CYCLE: 422,
  SCHEDULE_CONFLICT: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface BulkItemError {
  index: number;
  key?: string;
  code: string;
  message: string;
  fields?: Record<string, string>;
  from?: string;
  to?: string;
}

/** `details` of the codes that carry documented fields; every other code has a plain object. */
export interface ErrorDetailsByCode {
  VALIDATION_ERROR: {
    /** Each bad field and why, e.g. `{"title": "must not be blank"}`. */
    fields?: Record<string, string>;
    /** Bulk calls: every refused item. */
    items?: BulkItemError[];
    location?: string;
    missing?: number[];
    unknown?: number[];
  };
  INVALID_QUERY: {
    /** 0-based character offset of the problem in the query. */
    position?: number;
    /** What would have been valid there. */
    expected?: string[];
  };
  INSUFFICIENT_SCOPE: { required: string };
  ALREADY_EXISTS: { field?: string; transition?: number };
  STATUS_IN_USE: { task_count: number };
  ACTIVE_SPRINT_EXISTS: { sprint: number };
  DUPLICATE_LINK: { link_id: number; type: string };
  OPTION_IN_USE: { task_count: number; options: number[] };
  FIELD_IN_USE: { task_count: number };
  /** Changes the walk needs were removed by retention: copy the tasks afresh (docs/api/changes-feed.md). */
  RESYNC_REQUIRED: { purged_before: string | null };
  /** The event stream no longer holds what follows `after` (docs/api/events-stream.md). */
  EVENTS_EXPIRED: { after: string; window_hours: number };
  PRECONDITION_FAILED: { etag: string };
  PAYLOAD_TOO_LARGE: { max_bytes?: number };
  INVALID_TRANSITION: { from: string; to: string };
  DEPENDENCY_CYCLE: { path: string[] };
  /** Open tasks that block this one and are due after it would start; `force: true` writes it anyway. */
  SCHEDULE_CONFLICT: { blockers: Array<{ key: string; title: string; due_date: string }> };
  INTERNAL_ERROR: { request_id?: string };
}

export type ErrorDetails<C extends string> = C extends keyof ErrorDetailsByCode
  ? ErrorDetailsByCode[C] & Record<string, unknown>
  : Record<string, unknown>;

/** A refused request. `code` is one of `ErrorCode` unless the service is newer than this client. */
export class ApiError<C extends string = ErrorCode | (string & {})> extends Error {
  readonly status: number;
  readonly code: C;
  readonly details: ErrorDetails<C>;
  /** X-Request-Id of the answer: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** Retry-After in seconds, when the answer carried it (429, 503). */
  readonly retryAfterSeconds: number | undefined;
  readonly response: Response;

  constructor(response: Response, code: C, message: string, details: ErrorDetails<C>) {
    super(message);
    this.name = 'ApiError';
    this.status = response.status;
    this.code = code;
    this.details = details;
    this.response = response;
    this.requestId = response.headers.get('x-request-id') ?? undefined;
    const retryAfter = response.headers.get('retry-after');
    this.retryAfterSeconds = retryAfter !== null && /^[0-9]+$/.test(retryAfter) ? Number(retryAfter) : undefined;
  }
}

/** True when `error` is an `ApiError`, narrowed to the given codes when any are named. */
export function isApiError<C extends ErrorCode>(error: unknown, ...codes: C[]): error is ApiError<C> {
  return error instanceof ApiError && (codes.length === 0 || (codes as string[]).includes(error.code));
}

/** Builds the ApiError for a non-2xx answer from its parsed body (anything, for answers from a proxy). */
export function toApiError(response: Response, body: unknown): ApiError {
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (error && typeof error.code === 'string') {
    const details =
      typeof error.details === 'object' && error.details !== null ? (error.details as Record<string, unknown>) : {};
    return new ApiError(
      response,
      error.code,
      typeof error.message === 'string' ? error.message : error.code,
      details as ErrorDetails<string>,
    );
  }
  return new ApiError(response, `HTTP_${response.status}`, `HTTP ${response.status} ${response.statusText}`.trim(), {});
}

/**
 * No answer: the connection failed or was cut, or the attempt outlived the `timeout`, on the
 * last attempt, or on the first for a request that is never repeated (docs/sdk.md, "Retries").
 * The request may or may not have been carried out. `cause` is the underlying error.
 */
export class NetworkError extends Error {
  readonly method: string;
  readonly url: string;
  /** Attempts made, this one included. */
  readonly attempts: number;
  /** The last attempt outlived the client's `timeout`. */
  readonly timedOut: boolean;

  constructor(failure: { method: string; url: string; attempts: number; timedOut: boolean; cause: unknown }) {
    const { cause } = failure;
    const reason = failure.timedOut
      ? 'timed out'
      : cause instanceof Error
        ? (detail(cause) ?? cause.message)
        : String(cause);
    super(`${failure.method} ${failure.url} failed after ${failure.attempts} attempt(s): ${reason}`, { cause });
    this.name = 'NetworkError';
    this.method = failure.method;
    this.url = failure.url;
    this.attempts = failure.attempts;
    this.timedOut = failure.timedOut;
  }
}

/** Node's fetch says "fetch failed" and puts the reason (ECONNREFUSED ...) in `cause`. */
function detail(error: Error): string | undefined {
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (typeof cause?.code === 'string') return `${error.message} (${cause.code})`;
  return typeof cause?.message === 'string' ? `${error.message}: ${cause.message}` : undefined;
}
