import pino, { type DestinationStream, type Logger } from 'pino';

/** Credentials that arrive in headers; anything logging a request's headers gets them censored. */
export const LOG_REDACT = {
  paths: ['req.headers.authorization', 'req.headers["idempotency-key"]', 'req.headers.cookie', 'res.headers["set-cookie"]'],
  censor: '[redacted]',
};

/** The one logger configuration shared by the API and the worker (tests pass a stream to read the lines). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return destination ? pino({ level, redact: LOG_REDACT }, destination) : pino({ level, redact: LOG_REDACT });
}
