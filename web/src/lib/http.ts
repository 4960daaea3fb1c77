/**
 * Calls to the service: the published API (`/api/v1/`) and the console API (`/api/console/`).
 * Every feature's api.ts fetches through these, so errors, CSRF and a lost session are handled once.
 */

export interface ApiErrorBody {
  code: string;
  message: string;
  details: Record<string, unknown>;
}

/** A refused or failed call, with what the person needs to report it: the message and the request id. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  readonly requestId: string | null;
  constructor(status: number, body: ApiErrorBody, requestId: string | null) {
    super(body.message);
    this.status = status;
    this.code = body.code;
    this.details = body.details ?? {};
    this.requestId = requestId;
  }
}

let csrfToken: string | null = null;
/** The session's CSRF token, sent on every call that changes something (the session cookie alone is not enough). */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export const csrfHeader = (): Record<string, string> => (csrfToken ? { 'x-csrf-token': csrfToken } : {});

/**
 * Uploads one file as multipart (`file` part) with progress, which fetch cannot report; the
 * answer is read like any other call.
 */
export function upload<T>(path: string, file: File, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('accept', 'application/json');
    for (const [name, value] of Object.entries(csrfHeader())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onerror = () =>
      reject(
        new ApiError(
          0,
          { code: 'NETWORK_ERROR', message: 'The upload was interrupted. Check your connection.', details: {} },
          null,
        ),
      );
    xhr.onload = () => {
      let json: { success?: boolean; data?: T; error?: ApiErrorBody } | null = null;
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        json = null;
      }
      if (xhr.status >= 200 && xhr.status < 300 && json?.success) resolve(json.data as T);
      else
        reject(
          new ApiError(
            xhr.status,
            json?.error ?? { code: `HTTP_${xhr.status}`, message: `The service answered ${xhr.status}.`, details: {} },
            xhr.getResponseHeader('x-request-id'),
          ),
        );
    };
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

let unauthenticated: () => void = () => {};
/** Called when a call answers 401: the session ended elsewhere (signed out, revoked, expired). */
export function onUnauthenticated(handler: () => void): void {
  unauthenticated = handler;
}

export interface Page<T> {
  data: T[];
  pagination?: { count?: number; limit: number; offset?: number; next_cursor?: string; has_more?: boolean };
}

export interface Result<T> {
  data: T;
  etag: string | null;
  pagination?: Page<T>['pagination'];
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  ifMatch?: string | null;
  signal?: AbortSignal;
  /** Keep a 401 local (sign-in forms) instead of ending the session in the app. */
  quiet401?: boolean;
}

export async function call<T>(path: string, options: CallOptions = {}): Promise<Result<T>> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['x-csrf-token'] = csrfToken;
  if (options.ifMatch) headers['if-match'] = options.ifMatch;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(
      0,
      { code: 'NETWORK_ERROR', message: 'The service could not be reached. Check your connection.', details: {} },
      null,
    );
  }
  const requestId = response.headers.get('x-request-id');
  const etag = response.headers.get('etag');
  if (response.status === 204) return { data: undefined as T, etag };
  const text = await response.text();
  let json: { success?: boolean; data?: T; pagination?: Page<T>['pagination']; error?: ApiErrorBody } | null = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok || !json || json.success === false) {
    const body = json?.error ?? {
      code: 'HTTP_' + response.status,
      message: `The service answered ${response.status} ${response.statusText}.`,
      details: {},
    };
    if (response.status === 401 && !options.quiet401) unauthenticated();
    throw new ApiError(response.status, body, requestId);
  }
  return { data: json.data as T, etag, pagination: json.pagination };
}

export const get = async <T>(path: string, signal?: AbortSignal): Promise<T> => (await call<T>(path, { signal })).data;
export const post = async <T>(path: string, body?: unknown): Promise<T> =>
  (await call<T>(path, { method: 'POST', body: body ?? {} })).data;
export const put = async <T>(path: string, body: unknown, ifMatch?: string | null): Promise<T> =>
  (await call<T>(path, { method: 'PUT', body, ifMatch })).data;
export const patch = async <T>(path: string, body: unknown): Promise<T> =>
  (await call<T>(path, { method: 'PATCH', body })).data;
export const del = async (path: string): Promise<void> => {
  await call<void>(path, { method: 'DELETE' });
};

/** Every item of a cursor-paginated list (200 a page, the service's largest). */
export async function getAll<T>(path: string, signal?: AbortSignal): Promise<T[]> {
  const items: T[] = [];
  let cursor = '';
  const sep = path.includes('?') ? '&' : '?';
  for (;;) {
    const page = await call<T[]>(`${path}${sep}limit=200&cursor=${encodeURIComponent(cursor)}`, { signal });
    items.push(...page.data);
    if (!page.pagination?.has_more || !page.pagination.next_cursor) return items;
    cursor = page.pagination.next_cursor;
  }
}

export function qs(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}
