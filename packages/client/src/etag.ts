/**
 * Optimistic concurrency on tasks: reads answer `ETag: "v<version>"`, and PUT, DELETE and
 * assign with `If-Match` refuse with 412 PRECONDITION_FAILED when the task changed since.
 */
import { isApiError } from './errors.js';

/** The `If-Match` header for an ETag read earlier. */
export function ifMatch(etag: string): { 'If-Match': string } {
  return { 'If-Match': etag };
}

export interface UpdateOptions {
  /** Attempts in all, default 5. */
  maxAttempts?: number;
}

/**
 * Read-modify-write without losing a concurrent change: `read` returns the current value and
 * its ETag, `write` sends the change with `If-Match: etag`. On 412 the loop reads again and
 * recomputes, up to `maxAttempts` times; the last 412 is thrown.
 */
export async function updateWithETag<T, R>(
  read: () => Promise<{ data: T; etag: string | undefined }>,
  write: (current: T, etag: string) => Promise<R>,
  options: UpdateOptions = {},
): Promise<R> {
  const maxAttempts = options.maxAttempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    const { data, etag } = await read();
    if (etag === undefined) throw new Error('updateWithETag: the read answered without an ETag');
    try {
      return await write(data, etag);
    } catch (error) {
      if (!isApiError(error, 'PRECONDITION_FAILED') || attempt >= maxAttempts) throw error;
    }
  }
}
