/**
 * The typed client: openapi-fetch over the types generated from the service's OpenAPI
 * document, with bearer auth, retries, timeouts, typed errors, idempotency keys and pagination.
 */
import createFetchClient, {
  mergeHeaders,
  type Client,
  type ClientPathsWithMethod,
  type HeadersOptions,
  type MaybeOptionalInit,
  type MethodResponse,
} from 'openapi-fetch';
import { toApiError } from './errors.js';
import { streamEvents, type EventStreamOptions } from './event-stream.js';
import type { WebhookEvent } from './events.js';
import type { paths } from './generated/openapi.js';
import { idempotencyKey } from './idempotency.js';
import { createResources, type Resources } from './resources.js';
import { realTiming, sendWithRetries, type RetryOptions, type Timing } from './retry.js';

export type Media = `${string}/${string}`;
/** The bare openapi-fetch client: answers `{data, error, response}` and never throws on a status. */
export type RawClient = Client<paths, Media>;

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** Paths that have the given method, e.g. `PathsFor<'post'>`. */
export type PathsFor<M extends Method> = ClientPathsWithMethod<RawClient, M>;
/** The 2xx body of an operation. */
export type SuccessBody<M extends Method, P extends PathsFor<M>> = MethodResponse<RawClient, M, P>;
/** Path, query and body of an operation, as openapi-fetch takes them. */
export type OperationInit<M extends Method, P extends PathsFor<M>> = MaybeOptionalInit<paths[P], M>;

export interface RequestExtras {
  /** Sent as `Idempotency-Key` (POST only: other methods ignore it). */
  idempotencyKey?: string;
  /**
   * Derives `Idempotency-Key` from the identifier of what is being created in your system
   * (an upstream row or event id) and the operation's path, so every retry of that creation,
   * from any process, sends the same key.
   */
  upstreamId?: string | number;
  /** Sent as `If-Match` (an ETag from an earlier read). */
  ifMatch?: string;
  /** Milliseconds each attempt of this call may take, instead of the client's `timeout`; 0 for no limit. */
  timeout?: number;
  /** Aborts this call, waits between retries included; it then rejects with the signal's reason. */
  signal?: AbortSignal;
}

type Args<M extends Method, P extends PathsFor<M>> =
  undefined extends OperationInit<M, P>
    ? [init?: NonNullable<OperationInit<M, P>> & RequestExtras]
    : [init: OperationInit<M, P> & RequestExtras];

/** A 2xx answer: the whole body, its `data`, the ETag when there is one, and the Response for any other header. */
export interface Reply<B> {
  body: B;
  data: B extends { data: infer D } ? D : undefined;
  etag: string | undefined;
  response: Response;
}

type ListBody = { data: readonly unknown[] };
/** GET paths that answer a list (`data` is an array). */
export type ListPaths = { [P in PathsFor<'get'>]: SuccessBody<'get', P> extends ListBody ? P : never }[PathsFor<'get'>];
/** One element of a list path's `data`. */
export type ItemOf<P extends ListPaths> = SuccessBody<'get', P> extends { data: readonly (infer T)[] } ? T : never;

type Call<M extends Method> = <P extends PathsFor<M>>(url: P, ...init: Args<M, P>) => Promise<Reply<SuccessBody<M, P>>>;

export interface TaskTrackerClient extends Resources {
  /** Typed requests; a non-2xx answer throws an `ApiError`. */
  get: Call<'get'>;
  post: Call<'post'>;
  put: Call<'put'>;
  patch: Call<'patch'>;
  delete: Call<'delete'>;
  /**
   * Every item of a list in offset mode (`limit`/`offset`, 200 a page unless `limit` is given).
   * Offset pages can skip or repeat rows that change during the walk; use `walk` to see every row once.
   */
  paginate<P extends ListPaths>(url: P, ...init: Args<'get', P>): AsyncGenerator<ItemOf<P>, void, undefined>;
  /** Every item of a list in cursor mode (primary key order), following `next_cursor` until `has_more` is false. */
  walk<P extends ListPaths>(url: P, ...init: Args<'get', P>): AsyncGenerator<ItemOf<P>, void, undefined>;
  /** The underlying openapi-fetch client, sharing auth, retries, timeout and signal. */
  raw: RawClient;
  events: {
    /**
     * The event stream (docs/api/events-stream.md): every event the token may see, typed, as it
     * commits; reconnects and resumes by itself. Ends when the client's or the call's signal aborts.
     */
    stream(options?: EventStreamOptions): AsyncGenerator<WebhookEvent, void, undefined>;
  };
}

export interface ClientOptions {
  /** Where the service runs, e.g. `https://tracker.example.com` (paths start with `/api/v1/`). */
  baseUrl: string;
  /** A bearer token (`tt_...`). */
  token: string;
  /** Defaults to the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Which failures are retried is fixed (docs/sdk.md, "Retries"); how often and how long to wait is set here. */
  retry?: RetryOptions;
  /**
   * Milliseconds one attempt may take, from sending the request to the end of the answer's
   * body, default 60 000; 0 for no limit. An attempt that runs out fails like a lost
   * connection: it is retried when the request may be repeated, else a `NetworkError` with
   * `timedOut` is thrown.
   */
  timeout?: number;
  /** Aborts every call of this client (in flight, waiting to retry, or made later), e.g. at shutdown. */
  signal?: AbortSignal;
  /** Replace the clock, the sleep between retries and the jitter's randomness (tests). */
  timing?: Partial<Timing>;
  /** Extra headers on every request, e.g. a User-Agent naming your integration. */
  headers?: Record<string, string>;
}

const DEFAULT_PAGE_SIZE = 200;
const DEFAULT_TIMEOUT_MS = 60_000;

// The typed surface is declared above; inside, requests are plain records.
type LooseInit = {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  headers?: HeadersOptions;
} & RequestExtras &
  Record<string, unknown>;
type LooseCall = (method: Method, url: string, init?: LooseInit) => Promise<Reply<unknown> & { body: unknown }>;

export function createClient(options: ClientOptions): TaskTrackerClient {
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const sender = (timeoutMs = options.timeout ?? DEFAULT_TIMEOUT_MS) =>
    sendWithRetries(baseFetch, {
      retry: options.retry ?? {},
      timing: { ...realTiming, ...options.timing },
      timeoutMs,
      clientSignal: options.signal,
    });
  const raw: RawClient = createFetchClient<paths, Media>({
    baseUrl: options.baseUrl,
    headers: { ...options.headers, Authorization: `Bearer ${options.token}` },
    fetch: sender(),
  });

  const call: LooseCall = async (method, url, init = {}) => {
    const { idempotencyKey: key, upstreamId, ifMatch, timeout, headers, ...rest } = init;
    const extra: Record<string, string> = {};
    if (key !== undefined) extra['Idempotency-Key'] = key;
    else if (upstreamId !== undefined)
      extra['Idempotency-Key'] = idempotencyKey(method, url, JSON.stringify(rest.params?.path ?? {}), upstreamId);
    if (ifMatch !== undefined) extra['If-Match'] = ifMatch;
    const request = raw.request as unknown as (
      method: Method,
      url: string,
      init: object,
    ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    const result = await request(method, url, {
      ...rest,
      headers: mergeHeaders(headers, extra),
      ...(timeout === undefined ? {} : { fetch: sender(timeout) }),
    });
    if (!result.response.ok) throw toApiError(result.response, result.error);
    const body = result.data;
    const data =
      typeof body === 'object' && body !== null && 'data' in body ? (body as { data: unknown }).data : undefined;
    return {
      body,
      data,
      etag: result.response.headers.get('etag') ?? undefined,
      response: result.response,
    } as Reply<unknown>;
  };

  const withQuery = (init: LooseInit | undefined, query: Record<string, unknown>): LooseInit => ({
    ...init,
    params: { ...init?.params, query: { ...init?.params?.query, ...query } },
  });

  async function* paginate(url: string, init?: LooseInit): AsyncGenerator<unknown, void, undefined> {
    const given = init?.params?.query ?? {};
    const limit = (given.limit as number | undefined) ?? DEFAULT_PAGE_SIZE;
    let offset = (given.offset as number | undefined) ?? 0;
    for (;;) {
      const { body } = await call('get', url, withQuery(init, { limit, offset }));
      const page = body as { data: unknown[]; pagination: { count: number } };
      yield* page.data;
      offset += page.data.length;
      if (page.data.length === 0 || offset >= page.pagination.count) return;
    }
  }

  async function* walk(url: string, init?: LooseInit): AsyncGenerator<unknown, void, undefined> {
    const given = init?.params?.query ?? {};
    let cursor = (given.cursor as string | undefined) ?? '';
    const limit = (given.limit as number | undefined) ?? DEFAULT_PAGE_SIZE;
    for (;;) {
      const { body } = await call('get', url, withQuery(init, { cursor, limit }));
      const page = body as { data: unknown[]; pagination: { next_cursor: string; has_more: boolean } };
      yield* page.data;
      if (!page.pagination.has_more) return;
      cursor = page.pagination.next_cursor;
    }
  }

  const bound = (method: Method) => ((url: string, init?: LooseInit) => call(method, url, init)) as unknown;
  return {
    ...createResources(call as never, walk as never),
    get: bound('get') as Call<'get'>,
    post: bound('post') as Call<'post'>,
    put: bound('put') as Call<'put'>,
    patch: bound('patch') as Call<'patch'>,
    delete: bound('delete') as Call<'delete'>,
    paginate: paginate as unknown as TaskTrackerClient['paginate'],
    walk: walk as unknown as TaskTrackerClient['walk'],
    raw,
    events: {
      stream: (streamOptions = {}) => {
        const signals = [options.signal, streamOptions.signal].filter((s) => s !== undefined);
        return streamEvents(
          {
            baseUrl: options.baseUrl,
            headers: { ...options.headers, Authorization: `Bearer ${options.token}` },
            // The stream is long-lived and resumes by itself: no timeout, no retries of the call.
            fetch: baseFetch,
          },
          { ...streamOptions, signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0] },
        );
      },
    },
  };
}
