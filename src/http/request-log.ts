import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Query parameters whose values may be credentials (a token pasted into a URL, an invitation or reset token). */
const SECRET_PARAM = /token|key|secret|password|signature|code|auth/i;

/** The URL as logged: values of query parameters that may carry secrets are replaced. */
export function loggedUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A name that is not valid percent-encoding is logged as sent.
      }
      return eq >= 0 && SECRET_PARAM.test(decoded) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

const requestSummary = (request: FastifyRequest) => ({
  method: request.method,
  url: loggedUrl(request.url),
  remote_address: request.ip,
});

/**
 * One line per request at `info`, written when it completes, with the request and the response
 * together (the arrival is logged at `debug` only). Query strings are logged without secrets.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: requestSummary(request) }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: requestSummary(request), res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
