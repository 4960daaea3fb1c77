/** The delivery rules of docs/api/webhooks.md, "Receiving webhooks" (schedule, success, auto-disable), as plain values and functions. */

/** Delays after failed attempts 1..5; fixed, no jitter. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000] as const;

/** Attempts per delivery; the delivery is abandoned (status `failed`) after the last one fails. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Consecutive abandoned deliveries (not attempts) that disable an endpoint. */
export const DISABLE_AFTER_ABANDONED = 20;

/** At most this much of a receiver's answer is kept in the attempt log. */
export const MAX_RESPONSE_BYTES = 4096;

/** Any 2xx is a success; everything else, 3xx included, is a failure. */
export function isSuccessStatus(status: number | null): boolean {
  return status !== null && status >= 200 && status <= 299;
}

/** When attempt `attemptNumber + 1` is due after attempt `attemptNumber` failed at `failedAtMs`; null when abandoned. */
export function nextAttemptAt(attemptNumber: number, failedAtMs: number): number | null {
  const delay = RETRY_DELAYS_MS[attemptNumber - 1];
  return delay === undefined ? null : failedAtMs + delay;
}

/** The error text recorded for an answer that is not a 2xx. */
export function failureFor(status: number): string {
  if (status >= 300 && status <= 399)
    return `HTTP ${status}: redirects are not followed; answer 2xx at the endpoint URL`;
  return `HTTP ${status}: the receiver did not answer 2xx`;
}
