import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One line per request at `info`, written when it completes, with the request and the response
 * together (the arrival is logged at `debug` only). `req` and `res` go through the logger's
 * serializers (src/logger.ts), so what they leave out stays out.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
