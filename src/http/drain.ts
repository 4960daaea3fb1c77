import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Graceful stop: from now on new requests get 503 SERVICE_UNAVAILABLE (with
     * `Connection: close`) while the ones in flight finish; once none is left, or at the
     * deadline, the server closes (connections still busy at the deadline are cut).
     */
    drainAndClose(deadlineMs: number): Promise<{ cut: boolean }>;
    /**
     * Runs `end` as soon as draining starts: responses that never finish by themselves (live
     * streams) end then, rather than hold the drain to its deadline and be cut.
     */
    onDrain(end: () => void | Promise<void>): void;
  }
}

/** Register before every other hook, so a request is counted (or refused) before any work. */
export function registerDrain(app: FastifyInstance): void {
  let draining = false;
  const inFlight = new Set<FastifyRequest>();
  let onIdle: (() => void) | null = null;
  const enders: Array<() => void | Promise<void>> = [];
  app.decorate('onDrain', (end: () => void | Promise<void>) => void enders.push(end));

  app.addHook('onRequest', async (request, reply) => {
    if (draining) {
      reply.header('connection', 'close').header('retry-after', '1');
      throw new ApiError('SERVICE_UNAVAILABLE', 'The server is shutting down; retry shortly.');
    }
    inFlight.add(request);
  });
  const done = async (request: FastifyRequest) => {
    if (inFlight.delete(request) && inFlight.size === 0) onIdle?.();
  };
  app.addHook('onResponse', done);
  app.addHook('onRequestAbort', done);

  app.decorate('drainAndClose', async (deadlineMs: number) => {
    draining = true;
    await Promise.all(enders.map((end) => end()));
    const idle = inFlight.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (onIdle = resolve));
    const stopTimer = new AbortController();
    const expired = sleep(deadlineMs, undefined, { signal: stopTimer.signal }).catch(() => undefined);
    await Promise.race([idle, expired]);
    stopTimer.abort();
    const cut = inFlight.size > 0;
    if (cut) app.server.closeAllConnections();
    await app.close();
    return { cut };
  });
}
