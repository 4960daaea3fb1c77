/**
 * One HTTP POST of a delivery attempt. The connection goes to an address the SSRF guard has
 * just checked: the agent comes from the pool of exactly the checked addresses (see
 * connection-pool.ts), whose `lookup` answers with them instead of asking DNS again. Redirects
 * are never followed (node:https does not follow them), the whole exchange is bounded by the
 * caller's AbortSignal (a total deadline, not an idle timer), and at most `maxBodyBytes` of the
 * answer are kept.
 */
import http from 'node:http';
import https from 'node:https';
import type { CheckedTarget } from './url-guard.ts';

export interface PostResult {
  /** Status of the answer, or null when none arrived before the deadline or the connection failed. */
  status: number | null;
  /** The first bytes of the answer as text. */
  body: string | null;
  /** Why no answer arrived; null when one did. */
  error: string | null;
}

export interface PostOptions {
  signal: AbortSignal;
  /** The pool of `target`'s checked addresses. */
  agent: http.Agent;
  maxBodyBytes: number;
  timeoutMs: number;
}

function describe(error: unknown, options: PostOptions): string {
  if (options.signal.aborted) return `timeout: no complete response status within ${options.timeoutMs} ms`;
  const e = error as { code?: string; message?: string };
  return e.code ? `${e.code}: ${e.message ?? ''}`.trim() : (e.message ?? String(error));
}

export async function postWebhook(
  target: CheckedTarget,
  body: Buffer,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<PostResult> {
  for (;;) {
    const { result, staleSocket } = await postOnce(target, body, headers, options);
    // A kept-alive socket the receiver closed while it sat idle fails before any answer; the
    // request is sent again on another socket (at worst a duplicate, which consumers dedupe).
    if (!staleSocket || options.signal.aborted) return result;
  }
}

function postOnce(
  target: CheckedTarget,
  body: Buffer,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<{ result: PostResult; staleSocket: boolean }> {
  const checked = new Set(target.addresses.map((a) => a.address));
  return new Promise((resolve) => {
    let status: number | null = null;
    const chunks: Buffer[] = [];
    let kept = 0;
    let settled = false;

    const finish = (result: PostResult, staleSocket = false) => {
      if (settled) return;
      settled = true;
      resolve({ result, staleSocket });
      request.destroy();
    };
    // PostgreSQL text cannot hold NUL, and a receiver may answer with anything.
    const answered = () =>
      finish({ status, body: Buffer.concat(chunks).toString('utf8').replaceAll('\0', '\uFFFD'), error: null });

    const requestOptions: https.RequestOptions = {
      method: 'POST',
      headers: { ...headers, 'content-length': String(body.length) },
      agent: options.agent,
      signal: options.signal,
    };
    const request =
      target.url.protocol === 'http:'
        ? http.request(target.url, requestOptions)
        : https.request(target.url, requestOptions);

    request.on('socket', (socket) => {
      // The pool guarantees this; checked again because reuse must never outlive the check.
      if (request.reusedSocket && !checked.has(socket.remoteAddress ?? '')) {
        request.destroy(
          new Error(
            `refused to reuse a connection to ${socket.remoteAddress}: not an address checked for this attempt`,
          ),
        );
      }
    });
    request.on('response', (response) => {
      // Success is decided by the status line (docs/api/webhooks.md, "Receiving webhooks"); the body is only kept for the log.
      status = response.statusCode ?? null;
      response.on('data', (chunk: Buffer) => {
        const room = options.maxBodyBytes - kept;
        if (room > 0) {
          const part = chunk.subarray(0, room);
          chunks.push(part);
          kept += part.length;
        }
        if (kept >= options.maxBodyBytes) answered();
      });
      response.on('end', answered);
      response.on('error', answered);
      response.on('aborted', answered);
    });
    request.on('error', (error) => {
      if (status !== null) answered();
      else
        finish(
          { status: null, body: null, error: describe(error, options) },
          request.reusedSocket && isResetBeforeAnswer(error),
        );
    });
    request.end(body);
  });
}

function isResetBeforeAnswer(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}
