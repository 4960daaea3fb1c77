import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppContext } from '../context.ts';
import { ping } from '../db/database.ts';
import type { Log } from '../logger.ts';
import { SERVICE_VERSION } from '../version.ts';

/**
 * A worker-only process has no API to probe, so with WORKER_HEALTH_PORT it answers the same
 * /healthz (the process runs) and /readyz (its database answers) as `serve`, and nothing else.
 */
export async function startWorkerHealth(ctx: AppContext, port: number, log: Log): Promise<Server> {
  const server = createServer((request, response) => {
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      response.end(request.method === 'HEAD' ? undefined : JSON.stringify(body));
    };
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, { error: 'method not allowed' });
    if (path === '/healthz') return answer(200, { status: 'ok', version: SERVICE_VERSION });
    if (path !== '/readyz') return answer(404, { error: 'not found' });
    ping(ctx.database).then(
      () => answer(200, { status: 'ok' }),
      () => answer(503, { status: 'unavailable', reason: 'The database is not reachable.' }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, ctx.config.host, () => resolve());
  });
  log.info({ port: (server.address() as AddressInfo).port }, 'worker health endpoint listening');
  return server;
}
