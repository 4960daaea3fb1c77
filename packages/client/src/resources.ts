/**
 * The resource layer: `tt.tasks.create('WEB', {title})`, `tt.tasks.list('WEB', {status})`, one
 * method per operation of the document, from the generated table (generated/resources.ts), over
 * the same calls as `tt.post(...)` and friends. Arguments: the path parameters in path order,
 * then the query (GET, DELETE) or the body (POST, PUT, PATCH), then the call's options.
 */
import type { HeadersOptions } from 'openapi-fetch';
import type {
  ItemOf,
  ListPaths,
  Method,
  OperationInit,
  PathsFor,
  Reply,
  RequestExtras,
  SuccessBody,
} from './client.js';
import { RESOURCES } from './generated/resources.js';

/** What every resource method takes last: idempotency, If-Match, timeout, signal, extra headers. */
export type CallOptions = RequestExtras & { headers?: HeadersOptions };

type Table = typeof RESOURCES;
type Entry = { method: Method; path: string; pathParams: readonly string[]; cursor: boolean };

type InitOf<E extends Entry> =
  E['path'] extends PathsFor<E['method']> ? NonNullable<OperationInit<E['method'], E['path']>> : never;
type PathObject<I> = I extends { params: { path: infer P } } ? P : Record<string, never>;
type Positional<N extends readonly string[], P> = { -readonly [K in keyof N]: P[N[K] & keyof P] };
type PathArgs<E extends Entry> = Positional<E['pathParams'], PathObject<InitOf<E>>>;
type QueryArg<I> = I extends { params: { query?: infer Q } }
  ? [Q] extends [undefined]
    ? []
    : [query?: Exclude<Q, undefined>]
  : [];
type BodyArg<I> = I extends { body: infer B }
  ? [body: B]
  : I extends { body?: infer B }
    ? [B] extends [undefined]
      ? []
      : [body?: Exclude<B, undefined>]
    : [];
type Args<E extends Entry> = [
  ...PathArgs<E>,
  ...(E['method'] extends 'get' | 'delete' ? QueryArg<InitOf<E>> : BodyArg<InitOf<E>>),
  options?: CallOptions,
];

type ReplyOf<E extends Entry> =
  E['path'] extends PathsFor<E['method']> ? Reply<SuccessBody<E['method'], E['path']>> : never;

/**
 * A list call: awaited, it is the first page (`{body, data, etag, response}`); iterated with
 * `for await`, it yields every item of every page, following cursors (each row once).
 */
export interface ListCall<R, T> extends PromiseLike<R>, AsyncIterable<T> {}

type ResultOf<E extends Entry> = E['cursor'] extends true
  ? E['path'] extends ListPaths
    ? ListCall<ReplyOf<E>, ItemOf<E['path']>>
    : Promise<ReplyOf<E>>
  : Promise<ReplyOf<E>>;

/** One method per operation, e.g. `tasks.create(project_key, body, options?)`. */
export type Resources = {
  [R in keyof Table]: {
    [M in keyof Table[R]]: Table[R][M] extends Entry ? (...args: Args<Table[R][M]>) => ResultOf<Table[R][M]> : never;
  };
};

type Init = {
  params: { path: Record<string, unknown>; query?: Record<string, unknown> };
  body?: unknown;
} & CallOptions;
export type Caller = (method: Method, url: string, init: Init) => Promise<Reply<unknown>>;
export type Walker = (url: string, init: Init) => AsyncGenerator<unknown, void, undefined>;

export function createResources(call: Caller, walk: Walker): Resources {
  const build = (entry: Entry) => {
    const takesQuery = entry.method === 'get' || entry.method === 'delete';
    return (...args: unknown[]) => {
      const path = Object.fromEntries(entry.pathParams.map((name, i) => [name, args[i]]));
      const [payload, options] = args.slice(entry.pathParams.length) as [unknown, CallOptions | undefined];
      const init: Init = {
        ...options,
        params: { path, ...(takesQuery && payload !== undefined ? { query: payload as Record<string, unknown> } : {}) },
        ...(!takesQuery && payload !== undefined ? { body: payload } : {}),
      };
      if (!entry.cursor) return call(entry.method, entry.path, init);
      let page: Promise<Reply<unknown>> | undefined;
      const list: ListCall<Reply<unknown>, unknown> = {
        // The first page is asked for only when awaited: iterating walks from the start instead.
        then: (onFulfilled, onRejected) =>
          (page ??= call(entry.method, entry.path, init)).then(onFulfilled, onRejected),
        [Symbol.asyncIterator]: () => walk(entry.path, init),
      };
      return list;
    };
  };
  return Object.fromEntries(
    Object.entries(RESOURCES).map(([resource, methods]) => [
      resource,
      Object.fromEntries(Object.entries(methods).map(([name, entry]) => [name, build(entry as Entry)])),
    ]),
  ) as Resources;
}
