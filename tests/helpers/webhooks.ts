import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import tls from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { generate } from 'selfsigned';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Db } from '../../src/db/database.ts';
import type { DeliveryStatus } from '../../src/db/schema.ts';
import type { EventType } from '../../src/events/catalog.ts';
import { recordEvent } from '../../src/events/record-event.ts';
import type { ResolvedAddress, Resolver } from '../../src/modules/webhooks/delivery/url-guard.ts';
import type { MailMessage } from '../../src/mail/mailer.ts';
import { type BeforeReady, createHarness, type TestHarness } from './harness.ts';

/** A test CA and a server certificate it signed for hooks.test, *.hooks.test, localhost and 127.0.0.1. */
export interface TestPki {
  ca: string;
  key: string;
  cert: string;
}

let pki: Promise<TestPki> | undefined;

export function testPki(): Promise<TestPki> {
  pki ??= (async () => {
    const ca = await generate([{ name: 'commonName', value: 'tasktracker test CA' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      ],
    });
    const leaf = await generate([{ name: 'commonName', value: 'hooks.test' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      ca: { key: ca.private, cert: ca.cert },
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'hooks.test' },
            { type: 2, value: '*.hooks.test' },
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
          ],
        },
      ],
    });
    return { ca: ca.cert, key: leaf.private, cert: leaf.cert };
  })();
  return pki;
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export type Responder = (request: ReceivedRequest) => {
  status: number;
  body?: string;
  headers?: Record<string, string>;
};

export interface Receiver {
  port: number;
  /** https://hooks.test:<port><path>: resolved to 127.0.0.1 by the test resolver. */
  url(path?: string): string;
  requests: ReceivedRequest[];
  respond: Responder;
  close(): Promise<void>;
}

/** A real HTTPS receiver on 127.0.0.1 with a certificate from the test CA. */
export async function startReceiver(respond: Responder = () => ({ status: 200, body: 'ok' })): Promise<Receiver> {
  const { key, cert } = await testPki();
  const requests: ReceivedRequest[] = [];
  const receiver: Receiver = {
    port: 0,
    url: (path = '/hook') => `https://hooks.test:${receiver.port}${path}`,
    requests,
    respond,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(received);
      const answer = receiver.respond(received);
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  return receiver;
}

/**
 * A TLS server that reads the request, then drips a valid "200 OK" one byte every `intervalMs`:
 * every byte resets an idle timer, so only a total deadline stops the attempt.
 */
export async function startDripReceiver(intervalMs: number): Promise<{ port: number; close(): Promise<void> }> {
  const { key, cert } = await testPki();
  const sockets = new Set<tls.TLSSocket>();
  const server = tls.createServer({ key, cert }, (socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => {
      const answer = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
      let i = 0;
      const timer = setInterval(() => {
        if (socket.destroyed || i >= answer.length) return clearInterval(timer);
        socket.write(answer.subarray(i, ++i));
      }, intervalMs);
      socket.on('close', () => clearInterval(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}

export interface Canary {
  port: number;
  /** Where the canary listens: `::` (dual stack: every local IPv4 and IPv6 address) or `0.0.0.0`. */
  host: string;
  /** Every TCP connection accepted, counted when the socket opens (before any TLS or HTTP). */
  connections: Array<{ remoteAddress: string | undefined; localAddress: string | undefined }>;
  close(): Promise<void>;
}

/**
 * A TCP listener that only counts connections and drops them: the SSRF tests aim every refused
 * form at its port, so a single connection means the guard let one through. It listens on
 * every local address (127.0.0.0/8, ::1, 0.0.0.0 and the host's own addresses), not only 127.0.0.1.
 */
export async function startCanary(): Promise<Canary> {
  const sockets = new Set<net.Socket>();
  const connections: Canary['connections'] = [];
  const server = net.createServer((socket) => {
    connections.push({ remoteAddress: socket.remoteAddress, localAddress: socket.localAddress });
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.destroy();
  });
  const listen = (host: string) =>
    new Promise<string>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port: 0, ipv6Only: false }, () => {
        server.off('error', reject);
        resolve(host);
      });
    });
  const host = await listen('::').catch(() => listen('0.0.0.0'));
  return {
    port: (server.address() as AddressInfo).port,
    host,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}

/** A resolver answering from a table the test can change between save time and delivery time. */
export function tableResolver(
  table: Record<string, string[]>,
): Resolver & { table: Record<string, string[]>; calls: string[] } {
  const calls: string[] = [];
  const resolver = async (hostname: string): Promise<ResolvedAddress[]> => {
    calls.push(hostname);
    const addresses = resolver.table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  resolver.table = table;
  resolver.calls = calls;
  return resolver;
}

/** A logger whose lines the test can read. */
export function captureLogger(): {
  log: FastifyBaseLogger;
  lines: Array<{ level: number; msg: string; [key: string]: unknown }>;
} {
  const lines: Array<{ level: number; msg: string }> = [];
  const log = pino(
    { level: 'debug' },
    { write: (line: string) => lines.push(JSON.parse(line)) },
  ) as unknown as FastifyBaseLogger;
  return { log, lines };
}

export interface WebhookHarness extends TestHarness {
  resolver: ReturnType<typeof tableResolver>;
  mail: MailMessage[];
}

/**
 * The app over a fresh database with the test CA trusted by the deliverer and a table resolver
 * (hooks.test and *.hooks.test → 127.0.0.1). `allowPrivate` is for tests with local receivers only.
 */
export async function createWebhookHarness(options: {
  allowPrivate: boolean;
  config?: Partial<Config>;
  beforeReady?: BeforeReady;
}): Promise<WebhookHarness> {
  const base = loadConfig({});
  const h = await createHarness({
    config: {
      ...options.config,
      webhooks: { ...base.webhooks, ...options.config?.webhooks, allowPrivateTargets: options.allowPrivate },
    },
    beforeReady: options.beforeReady,
  });
  const resolver = tableResolver({ 'hooks.test': ['127.0.0.1'] });
  const mail: MailMessage[] = [];
  h.ctx.webhookIo = { resolve: resolver, ca: (await testPki()).ca };
  h.ctx.mailer = { send: async (message) => void mail.push(message) };
  return Object.assign(h, { resolver, mail });
}

/** Writes an outbox event for a project the way a task change does (inside a transaction). */
export async function emitEvent(
  h: TestHarness,
  projectId: number,
  type: EventType = 'task.updated',
  data: Record<string, unknown> = {},
): Promise<string> {
  const org = await h.ctx.db
    .selectFrom('projects as p')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .select(['o.id', 'o.slug', 'o.name'])
    .where('p.id', '=', projectId)
    .executeTakeFirstOrThrow();
  return h.ctx.db.transaction().execute((trx) =>
    recordEvent(trx, {
      type,
      origin: {
        organization: org,
        actor: { id: 1, email: 'ann@example.test', name: 'Ann' },
        source: 'api',
        correlationId: 'req-test',
      },
      projectId,
      occurredAt: h.ctx.clock.nowIso(),
      data: { task: { key: 'T-1', title: 'Prénom «quoted» \u2028 emoji 🚀' }, ...data },
    }),
  );
}

/** Deliveries (of one endpoint, of one status, with given ids), oldest first, with the project of their event. */
export function deliveriesOf(
  h: TestHarness,
  filter: { endpoint?: number; status?: DeliveryStatus; ids?: number[] } = {},
  db: Db = h.ctx.db,
) {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('event_outbox as o', 'o.id', 'd.outbox_id')
    .selectAll('d')
    .select('o.project_id')
    .orderBy('d.id');
  if (filter.endpoint !== undefined) query = query.where('d.endpoint_id', '=', filter.endpoint);
  if (filter.status !== undefined) query = query.where('d.status', '=', filter.status);
  if (filter.ids !== undefined) query = query.where('d.id', 'in', filter.ids);
  return query.execute();
}

/** Delivery attempts (of given deliveries), oldest first. */
export function attemptsOf(h: TestHarness, filter: { deliveries?: number[] } = {}, db: Db = h.ctx.db) {
  let query = db.selectFrom('webhook_attempts').selectAll().orderBy('id');
  if (filter.deliveries !== undefined) query = query.where('delivery_id', 'in', filter.deliveries);
  return query.execute();
}

/** Outbox events not yet fanned out to endpoints. */
export function unfannedEvents(h: TestHarness) {
  return h.ctx.db.selectFrom('event_outbox').select('id').where('fanned_out_at', 'is', null).execute();
}

/** Endpoint rows as stored, oldest first: their counters, URLs and secrets as kept at rest. */
export function endpointRows(h: TestHarness) {
  return h.ctx.db.selectFrom('webhook_endpoints').selectAll().orderBy('id').execute();
}

export function endpointRow(h: TestHarness, id: number) {
  return h.ctx.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Disables one endpoint straight in the table, so later tests of the file do not deliver to it. */
export async function disableEndpoint(h: TestHarness, id: number): Promise<void> {
  await h.ctx.db.updateTable('webhook_endpoints').set({ enabled: 0 }).where('id', '=', id).execute();
}

/**
 * Disables every endpoint but `keep` straight in the table, so a test's delivery run reaches
 * only its own endpoints (the file's earlier endpoints stay in the shared database).
 */
export async function disableEndpointsExcept(h: TestHarness, keep: number[], db: Db = h.ctx.db): Promise<void> {
  let query = db.updateTable('webhook_endpoints').set({ enabled: 0 });
  if (keep.length) query = query.where('id', 'not in', keep);
  await query.execute();
}

/** Notifications of one kind, by recipient. */
export function notificationsOf(h: TestHarness, reason: string) {
  return h.ctx.db.selectFrom('notifications').selectAll().where('reason', '=', reason).orderBy('user_id').execute();
}
