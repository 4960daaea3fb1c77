import pino, { type DestinationStream, type Logger } from 'pino';

/** Credentials that arrive in headers; anything logging a request's headers gets them censored. */
export const LOG_REDACT = {
  paths: ['req.headers.authorization', 'req.headers["idempotency-key"]', 'req.headers.cookie', 'res.headers["set-cookie"]'],
  censor: '[redacted]',
};

/**
 * Fastify's request serializer, with the query string replaced: a query can carry a credential
 * (a token sent as `?access_token=`, which is refused but would still be logged), and no
 * request line needs one.
 */
export const LOG_SERIALIZERS = {
  req(req: { method?: string; url?: string; host?: string; ip?: string; socket?: { remotePort?: number } }) {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    return {
      method: req.method,
      url: query === -1 ? url : `${url.slice(0, query)}?[redacted]`,
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    };
  },
};

/** The one logger configuration shared by the API and the worker (tests pass a stream to read the lines). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: LOG_REDACT, serializers: LOG_SERIALIZERS };
  return destination ? pino(options, destination) : pino(options);
}
