/**
 * Every request goes through `sendWithRetries`: a timeout per attempt, the caller's and the
 * client's AbortSignal, and retries of the failures a later attempt can fix.
 *
 * What is retried (docs/sdk.md, "Retries"):
 * - `429 RATE_LIMITED`, for every method: the service decides it before the request does
 *   anything (it does not even claim the Idempotency-Key).
 * - A network error (refused, reset, no answer within the timeout) and `502`, `503`, `504`,
 *   only for requests that may run twice: GET, HEAD and OPTIONS, and POSTs carrying an
 *   `Idempotency-Key` (the service answers a repeat with the first attempt's stored response).
 *   Such a failure may come after the work was done, so anything else (an unkeyed POST, PUT,
 *   PATCH, DELETE) is not repeated: a PUT with If-Match that did commit would answer 412 to its
 *   repeat, and a DELETE 404.
 * A `Retry-After` (seconds or an HTTP date) is honoured; without one the waits grow from
 * `defaultDelayMs` (1 s, 2 s, 4 s ...), each shortened by up to half at random so that clients
 * cut off together do not return together. A wait longer than `maxDelayMs` is not made: the
 * answer that asked for it is returned.
 */
import { NetworkError } from './errors.js';

export interface RetryOptions {
  /** Retries after the first attempt, default 3; 0 turns retrying off. */
  maxRetries?: number;
  /** Longest single wait accepted, default 60 s; a longer Retry-After is not waited for. */
  maxDelayMs?: number;
  /** First wait when the answer names none (doubling after each retry), default 1 s. */
  defaultDelayMs?: number;
}

export interface Timing {
  /** Waits `ms`; rejects with the signal's reason when it is aborted first. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Milliseconds since the epoch, for Retry-After given as an HTTP date. */
  now: () => number;
  /** A number in [0, 1), for the jitter of waits. */
  random: () => number;
}

export const realTiming: Timing = {
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  now: () => Date.now(),
  random: () => Math.random(),
};

/** Retry-After as a wait in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^[0-9]+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const MAYBE_DONE_STATUSES = new Set([502, 503, 504]);
/** Statuses a Response may not be constructed with a body for. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** True when sending the request twice has the effect of sending it once. */
export function mayRepeat(request: Request): boolean {
  return SAFE_METHODS.has(request.method) || (request.method === 'POST' && request.headers.has('idempotency-key'));
}

export interface SendOptions {
  retry: RetryOptions;
  timing: Timing;
  /** Milliseconds an attempt may take, answer body included; 0 for no limit. */
  timeoutMs: number;
  /** Aborts every request of the client (the request's own signal aborts only it). */
  clientSignal: AbortSignal | undefined;
}

type Fetch = (request: Request) => Promise<Response>;

export function sendWithRetries(base: Fetch, options: SendOptions): Fetch {
  const maxRetries = options.retry.maxRetries ?? 3;
  const maxDelayMs = options.retry.maxDelayMs ?? 60_000;
  const defaultDelayMs = options.retry.defaultDelayMs ?? 1_000;
  const { timing } = options;

  return async (request) => {
    const callerSignals = [request.signal, options.clientSignal].filter((s): s is AbortSignal => s !== undefined);
    const callerSignal = callerSignals.length === 1 ? callerSignals[0]! : AbortSignal.any(callerSignals);
    const repeatable = mayRepeat(request);
    const backoff = (retry: number) => defaultDelayMs * 2 ** retry * (1 - timing.random() / 2);

    for (let retry = 0; ; retry++) {
      const last = retry >= maxRetries;
      const timeout = options.timeoutMs > 0 ? AbortSignal.timeout(options.timeoutMs) : undefined;
      // Each attempt sends a copy, so the body is still there for the next one.
      const attempt = new Request(last ? request : request.clone(), {
        signal: timeout ? AbortSignal.any([callerSignal, timeout]) : callerSignal,
      });
      const failure = (error: unknown) => {
        if (callerSignal.aborted) return callerSignal.reason as unknown;
        const timedOut = timeout?.aborted === true;
        return new NetworkError({
          method: request.method,
          url: request.url,
          attempts: retry + 1,
          timedOut,
          cause: error,
        });
      };
      let delay: number | undefined;
      try {
        const response = await base(attempt);
        const retryable = response.status === 429 || (repeatable && MAYBE_DONE_STATUSES.has(response.status));
        if (!retryable || last) return withBodyFailure(response, failure);
        delay = retryAfterMs(response.headers.get('retry-after'), timing.now()) ?? backoff(retry);
        if (delay > maxDelayMs) return response;
        await response.body?.cancel();
      } catch (error) {
        if (callerSignal.aborted) throw callerSignal.reason;
        const timedOut = timeout?.aborted === true;
        if (!repeatable || last)
          throw new NetworkError({
            method: request.method,
            url: request.url,
            attempts: retry + 1,
            timedOut,
            cause: error,
          });
        delay = backoff(retry);
      }
      await timing.sleep(Math.min(delay, maxDelayMs), callerSignal);
    }
  };
}

/**
 * The answer with its body read through `failure`: the timeout and the signals cover the body
 * too, so reading it can fail after the retries are over, and then fails the same way.
 */
function withBodyFailure(response: Response, failure: (error: unknown) => unknown): Response {
  if (!response.body || NULL_BODY_STATUSES.has(response.status)) return response;
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(failure(error));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
