/**
 * 429 RATE_LIMITED answers are retried after their `Retry-After`. Retrying is always safe:
 * a 429 is decided before the request does anything (it does not even claim an
 * Idempotency-Key). Retries are bounded in count and in the longest wait accepted; past either
 * bound the 429 is returned and becomes an ApiError with `retryAfterSeconds`.
 */

export interface RetryOptions {
  /** Retries after the first attempt, default 3; 0 turns retrying off. */
  maxRetries?: number;
  /** Longest single wait accepted, default 60 s; a longer Retry-After is not waited for. */
  maxDelayMs?: number;
  /** Wait when a 429 has no usable Retry-After, default 1 s. */
  defaultDelayMs?: number;
}

export interface Timing {
  sleep: (ms: number) => Promise<void>;
  /** Milliseconds since the epoch, for Retry-After given as an HTTP date. */
  now: () => number;
}

export const realTiming: Timing = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => Date.now(),
};

/** Retry-After as a wait in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^[0-9]+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

export function retryingFetch(
  base: (request: Request) => Promise<Response>,
  options: RetryOptions,
  timing: Timing,
): (request: Request) => Promise<Response> {
  const maxRetries = options.maxRetries ?? 3;
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const defaultDelayMs = options.defaultDelayMs ?? 1_000;
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      // Each attempt sends a copy, so the body is still there for the next one.
      const response = await base(attempt < maxRetries ? request.clone() : request);
      if (response.status !== 429 || attempt >= maxRetries) return response;
      const delay = retryAfterMs(response.headers.get('retry-after'), timing.now()) ?? defaultDelayMs;
      if (delay > maxDelayMs) return response;
      await response.body?.cancel();
      await timing.sleep(delay);
    }
  };
}
