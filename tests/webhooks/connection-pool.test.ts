import https from 'node:https';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue } from '../../src/modules/webhooks/delivery/deliver-due.ts';
import { fanOut } from '../../src/modules/webhooks/delivery/fan-out.ts';
import type { Actor } from '../helpers/harness.ts';
import {
  captureLogger,
  createWebhookHarness,
  disableEndpointsExcept,
  emitEvent,
  testPki,
  type WebhookHarness,
} from '../helpers/webhooks.ts';

/** An HTTPS receiver that tells which TLS connection each request came on, and which of them closed. */
interface ConnectionReceiver {
  port: number;
  /** The connection (1, 2, …) each request arrived on. */
  requests: number[];
  connections: number;
  closed: Set<number>;
  /** Resolves once connection `id` has closed. */
  whenClosed(id: number): Promise<void>;
  close(): Promise<void>;
}

async function startConnectionReceiver(host: string, port = 0): Promise<ConnectionReceiver> {
  const { key, cert } = await testPki();
  const ids = new WeakMap<object, number>();
  const waiters = new Map<number, () => void>();
  const receiver: ConnectionReceiver = {
    port: 0,
    requests: [],
    connections: 0,
    closed: new Set(),
    whenClosed: (id) =>
      receiver.closed.has(id) ? Promise.resolve() : new Promise((resolve) => waiters.set(id, resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = https.createServer({ key, cert }, (req, res) => {
    req.resume();
    req.on('end', () => {
      receiver.requests.push(ids.get(req.socket)!);
      res.writeHead(204).end();
    });
  });
  server.on('secureConnection', (socket) => {
    const id = ++receiver.connections;
    ids.set(socket, id);
    socket.on('close', () => {
      receiver.closed.add(id);
      waiters.get(id)?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  receiver.port = (server.address() as AddressInfo).port;
  return receiver;
}

/**
 * Delivery attempts reuse kept-alive connections, but the URL rules (docs/api/webhooks.md, "Webhook URLs") still
 * hold per attempt: the name is resolved and checked again, and a pooled connection is
 * reused only when it goes to an address this attempt's check passed.
 */
describe('pooled delivery connections and the SSRF guard', () => {
  let h: WebhookHarness;
  let admin: Actor;
  let project: { id: number };
  let first: ConnectionReceiver;
  let second: ConnectionReceiver;
  const { log } = captureLogger();

  beforeAll(async () => {
    h = await createWebhookHarness({ allowPrivate: true });
    admin = await h.actor();
    project = await h.project(admin, 'POOL');
    // Its project.created event is out of the way before any endpoint exists.
    await fanOut(h.ctx);
    first = await startConnectionReceiver('127.0.0.1');
    // The same port on another loopback address: only the resolved address tells them apart.
    second = await startConnectionReceiver('127.0.0.2', first.port);
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await h.close();
  });

  async function endpointFor(host: string): Promise<number> {
    const res = await h.request('POST', '/api/v1/webhooks/endpoints/', {
      token: admin.token,
      body: { url: `https://${host}:${first.port}/hook`, project: project.id, events: ['task.updated'] },
    });
    expect(res.status, res.text).toBe(201);
    await disableEndpointsExcept(h, [res.body.data.id]);
    return res.body.data.id;
  }

  async function deliverOne(): Promise<void> {
    await emitEvent(h, project.id);
    expect(await fanOut(h.ctx)).toBe(1);
    expect(await deliverDue(h.ctx, log)).toBe(1);
  }

  it('reuses the connection while the answer stays; a new address gets a new connection and the old one is closed', async () => {
    h.resolver.table['moving.hooks.test'] = ['127.0.0.1'];
    await endpointFor('moving.hooks.test');
    await deliverOne();
    await deliverOne();
    expect(first.requests).toEqual([1, 1]);
    expect(first.connections).toBe(1);

    h.resolver.table['moving.hooks.test'] = ['127.0.0.2'];
    await deliverOne();
    expect(second.requests).toEqual([1]);
    expect(first.requests).toEqual([1, 1]);
    // The pool of the old answer is retired: its idle connection is closed, not kept for later.
    await first.whenClosed(1);

    h.resolver.table['moving.hooks.test'] = ['127.0.0.1'];
    await deliverOne();
    expect(first.requests).toEqual([1, 1, 2]);
  });

  it('once the host resolves to a private address the attempt is refused and the pooled connection is not used', async () => {
    h.resolver.table['rebind.hooks.test'] = ['127.0.0.1'];
    const id = await endpointFor('rebind.hooks.test');
    first.requests.length = 0;
    const connectionsBefore = first.connections;
    await deliverOne();
    await deliverOne();
    expect(first.requests).toEqual([connectionsBefore + 1, connectionsBefore + 1]);

    // The receiver is local, so the switch let the first attempts through; turned off (as in
    // production), the rebinding answer is checked like any other.
    h.ctx.config.webhooks.allowPrivateTargets = false;
    // The receiver's port is allowed (WEBHOOK_ALLOWED_PORTS), so only the address can refuse the attempt.
    h.ctx.config.webhooks.allowedPorts = [first.port];
    try {
      h.resolver.table['rebind.hooks.test'] = ['10.0.0.7'];
      h.resolver.calls.length = 0;
      await deliverOne();
    } finally {
      h.ctx.config.webhooks.allowPrivateTargets = true;
      h.ctx.config.webhooks.allowedPorts = [];
    }

    expect(h.resolver.calls).toEqual(['rebind.hooks.test']);
    expect(first.requests).toHaveLength(2);
    expect(first.connections).toBe(connectionsBefore + 1);
    const res = await h.request('GET', `/api/v1/webhooks/deliveries/?endpoint=${id}&ordering=-id`, {
      token: admin.token,
    });
    expect(res.body.data[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      response_status: null,
      error:
        'refused before connecting: the URL host rebind.hooks.test resolves to 10.0.0.7, a private (RFC 1918) address',
    });
  });

  it('a kept-alive connection the receiver dropped is not a failed attempt: the request goes out again on a new connection', async () => {
    // Answers the first request on each connection and keeps it open; a second request on the
    // same connection is read and the connection dropped unanswered, as when a receiver closes
    // an idle connection just as it is reused.
    const { key, cert } = await testPki();
    const sockets = new Set<tls.TLSSocket>();
    let connections = 0;
    let answered = 0;
    const server = tls.createServer({ key, cert }, (socket) => {
      sockets.add(socket);
      connections += 1;
      let requests = 0;
      socket.on('error', () => undefined);
      socket.on('data', () => {
        requests += 1;
        if (requests > 1) return socket.destroy();
        answered += 1;
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await h.request('POST', '/api/v1/webhooks/endpoints/', {
        token: admin.token,
        body: {
          url: `https://hooks.test:${(server.address() as AddressInfo).port}/hook`,
          project: project.id,
          events: ['task.updated'],
        },
      });
      expect(res.status, res.text).toBe(201);
      await disableEndpointsExcept(h, [res.body.data.id]);
      await deliverOne();
      await deliverOne();

      expect(answered).toBe(2);
      expect(connections).toBe(2);
      const deliveries = await h.request('GET', `/api/v1/webhooks/deliveries/?endpoint=${res.body.data.id}`, {
        token: admin.token,
      });
      expect(deliveries.body.data.map((d: { status: string; attempts: number }) => [d.status, d.attempts])).toEqual([
        ['delivered', 1],
        ['delivered', 1],
      ]);
    } finally {
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
