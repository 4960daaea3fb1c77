import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fanOut } from '../../src/modules/webhooks/delivery/fan-out.ts';
import { deliverDue } from '../../src/modules/webhooks/delivery/deliver-due.ts';
import { LOST_ATTEMPT_ERROR } from '../../src/modules/webhooks/delivery/delivery-claims.ts';
import { processUrl } from '../helpers/database.ts';
import {
  attemptsOf,
  captureLogger,
  createWebhookHarness,
  deliveriesOf,
  emitEvent,
  type WebhookHarness,
} from '../helpers/webhooks.ts';

/**
 * Kill the worker mid-delivery and restart. A real `tasktracker worker`
 * process claims the delivery and sends it; the receiver SIGKILLs it before answering. The
 * claim survives in the database, and once the lease has passed a new worker re-runs the
 * attempt and completes the delivery.
 */
describe('a worker process killed mid-delivery', () => {
  let h: WebhookHarness;
  let server: http.Server;
  let child: ChildProcess | undefined;
  const received: string[] = [];
  let onRequest: (req: http.IncomingMessage, res: http.ServerResponse) => void = () => undefined;

  beforeAll(async () => {
    h = await createWebhookHarness({ allowPrivate: true });
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => onRequest(req, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await h.close();
  });

  it(
    'the delivery is not lost: after the lease it is attempted again and delivered',
    { timeout: 120_000 },
    async () => {
      const admin = await h.actor();
      const project = await h.project(admin, 'KILL');
      // Its project.created event is out of the way before any endpoint exists.
      await fanOut(h.ctx);
      const port = (server.address() as AddressInfo).port;
      const created = await h.request('POST', '/api/v1/webhooks/endpoints/', {
        token: admin.token,
        body: { url: `http://127.0.0.1:${port}/hook`, project: project.id },
      });
      expect(created.status).toBe(201);
      const eventId = await emitEvent(h, project.id);

      const env = {
        ...process.env,
        DATABASE_URL: processUrl(h.ctx.database),
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        LOG_LEVEL: 'error',
      };
      const worker = spawn(process.execPath, [path.resolve('bin/tasktracker.js'), 'worker'], {
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      child = worker;
      const stderr: string[] = [];
      worker.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
      // A worker that dies on its own (before the receiver kills it) fails the test at once, with its stderr.
      const killed = new Promise<void>((resolve, reject) => {
        let killedByReceiver = false;
        worker.once('exit', (code, signal) =>
          killedByReceiver
            ? resolve()
            : reject(new Error(`worker exited by itself (${code ?? signal}): ${stderr.join('')}`)),
        );
        onRequest = (req) => {
          received.push(req.headers['x-service-event-id'] as string);
          killedByReceiver = true;
          worker.kill('SIGKILL');
        };
      });
      await killed;
      expect(received).toEqual([eventId]);

      // What the dead worker left: a leased delivery and an attempt without an outcome.
      const delivery = (await deliveriesOf(h))[0]!;
      expect(delivery).toMatchObject({ status: 'pending', attempts: 0 });
      expect(delivery.locked_until).not.toBeNull();
      const inFlight = (await attemptsOf(h)).map(({ number, finished_at }) => ({ number, finished_at }));
      expect(inFlight).toEqual([{ number: 1, finished_at: null }]);

      // A worker started again picks it up once the lease has passed (the clock moves instead of the test waiting).
      onRequest = (req, res) => {
        received.push(req.headers['x-service-event-id'] as string);
        res.writeHead(200).end('stored');
      };
      const { log } = captureLogger();
      h.clock.set(new Date(Date.parse(delivery.locked_until!) - 1));
      expect(await deliverDue(h.ctx, log)).toBe(0);
      h.clock.set(delivery.locked_until!);
      expect(await deliverDue(h.ctx, log)).toBe(1);

      expect(received).toEqual([eventId, eventId]);
      const detail = (await h.request('GET', `/api/v1/webhooks/deliveries/${delivery.id}/`, { token: admin.token }))
        .body.data;
      expect(detail).toMatchObject({ status: 'delivered', attempts: 1, response_status: 200 });
      expect(
        detail.attempt_history.map((a: { number: number; error: string | null; response_status: number | null }) => [
          a.number,
          a.error,
          a.response_status,
        ]),
      ).toEqual([
        [1, LOST_ATTEMPT_ERROR, null],
        [1, null, 200],
      ]);
    },
  );
});
