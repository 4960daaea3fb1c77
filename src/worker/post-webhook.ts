/**
 * One HTTP POST of a delivery attempt. The connection goes to an address the SSRF guard has
 * just checked (a custom `lookup` answers with the checked addresses instead of asking DNS
 * again), redirects are never followed (node:https does not follow them), the whole exchange
 * is bounded by the caller's AbortSignal (a total deadline, not an idle timer), and at most
 * `maxBodyBytes` of the answer are kept.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import tls, { type SecureContext } from 'node:tls';
import type { CheckedTarget } from '../modules/webhooks/url-guard.ts';

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
  /** Trusted CA certificates instead of the system roots (tests only). */
  ca?: string | Buffer | Array<string | Buffer>;
  maxBodyBytes: number;
  timeoutMs: number;
}

type TrustedCa = PostOptions['ca'];

// Building a TLS context parses every trusted certificate; do it once per trust list, not per attempt.
const contexts = new Map<TrustedCa, SecureContext>();

function secureContextFor(ca: TrustedCa): SecureContext {
  let context = contexts.get(ca);
  if (!context) {
    context = tls.createSecureContext(ca ? { ca } : {});
    contexts.set(ca, context);
  }
  return context;
}

function describe(error: unknown, options: PostOptions): string {
  if (options.signal.aborted) return `timeout: no complete response status within ${options.timeoutMs} ms`;
  const e = error as { code?: string; message?: string };
  return e.code ? `${e.code}: ${e.message ?? ''}`.trim() : (e.message ?? String(error));
}

export function postWebhook(target: CheckedTarget, body: Buffer, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
  const addresses = target.addresses;
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) {
      (callback as (err: null, addresses: Array<{ address: string; family: number }>) => void)(null, addresses);
    } else {
      callback(null, addresses[0]!.address, addresses[0]!.family);
    }
  };

  return new Promise<PostResult>((resolve) => {
    let status: number | null = null;
    const chunks: Buffer[] = [];
    let kept = 0;
    let settled = false;

    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
      request.destroy();
    };
    // PostgreSQL text cannot hold NUL, and a receiver may answer with anything.
    const answered = () => finish({ status, body: Buffer.concat(chunks).toString('utf8').replaceAll('\0', '\uFFFD'), error: null });

    const requestOptions: https.RequestOptions = {
      method: 'POST',
      headers: { ...headers, 'content-length': String(body.length) },
      // A fresh connection per attempt: it goes to an address checked for this very attempt.
      agent: false,
      lookup,
      signal: options.signal,
    };
    // Plain http only exists with WEBHOOK_ALLOW_PRIVATE_TARGETS (development and tests).
    // tls.connect takes `secureContext`; @types/node does not list it on https.RequestOptions.
    const tlsOptions: https.RequestOptions & { secureContext: SecureContext } = { ...requestOptions, secureContext: secureContextFor(options.ca) };
    const request = target.url.protocol === 'http:' ? http.request(target.url, requestOptions) : https.request(target.url, tlsOptions);

    request.on('response', (response) => {
      // Success is decided by the status line (API-DECISIONS); the body is only kept for the log.
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
      else finish({ status: null, body: null, error: describe(error, options) });
    });
    request.end(body);
  });
}
