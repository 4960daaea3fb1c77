import pino, { type DestinationStream, type Logger } from 'pino';

/** What code outside HTTP logs through (Fastify's request logger is one), so it need not import Fastify. */
export type Log = Pick<Logger, 'error' | 'warn' | 'info' | 'debug'>;

/** Credentials that arrive in headers; anything logging a request's headers gets them censored. */
export const LOG_REDACT = {
  paths: [
    'req.headers.authorization',
    'req.headers["idempotency-key"]',
    'req.headers.cookie',
    'res.headers["set-cookie"]',
  ],
  censor: '[redacted]',
};

/**
 * Fastify's request serializer, with the query string replaced: a query can carry a credential
 * (a token sent as `?access_token=`, which is refused but would still be logged), and no
 * request line needs one.
 */
export const LOG_SERIALIZERS = {
  req(req: {
    raw?: unknown;
    method?: string;
    url?: string;
    host?: string;
    ip?: string;
    socket?: { remotePort?: number };
  }): Record<string, unknown> {
    const url = typeof req.url === 'string' ? withoutQuery(req.url) : undefined;
    // A Fastify request: the fields Fastify's own serializer keeps. Anything else logged as `req`
    // keeps its shape (its headers are censored by LOG_REDACT).
    if (!req.raw) return url === undefined ? req : { ...req, url };
    return { method: req.method, url, host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
  },
};

function withoutQuery(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : `${url.slice(0, query)}?[redacted]`;
}

/** The one logger configuration shared by the API and the worker (tests pass a stream to read the lines). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: LOG_REDACT, serializers: LOG_SERIALIZERS };
  return destination ? pino(options, destination) : pino(options);
}
