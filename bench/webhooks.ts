/**
 * End-to-end webhook throughput: events written to the outbox the way a task change writes
 * them (one transaction each), fanned out and delivered by the real worker loop over HTTPS to a
 * local receiver. Prints events per second from the first write to the last receipt, and the
 * p50/p99 from each event's commit to its receipt (first attempts), then exits.
 *
 *   npm run bench:webhooks                          # 2000 events, 1 endpoint, temporary SQLite
 *   EVENTS=5000 ENDPOINTS=3 DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench npm run bench:webhooks
 *
 * Bounded: gives up (exit code 1) after BENCH_TIMEOUT_SECONDS (default 120).
 */
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setImmediate } from 'node:timers/promises';
import pino from 'pino';
import { generate } from 'selfsigned';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { type AppContext, createAppContext } from '../src/context.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { recordEvent } from '../src/events/record-event.ts';
import type { Principal } from '../src/identity/principal.ts';
import { inTransaction } from '../src/db/unit-of-work.ts';
import { checkNewEndpoint, createEndpoint } from '../src/modules/webhooks/endpoints.service.ts';
import { startWorker, WORKER_JOBS } from '../src/worker/run-worker.ts';

const EVENTS = Number(process.env.EVENTS ?? 2000);
const ENDPOINTS = Number(process.env.ENDPOINTS ?? 1);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_SECONDS ?? 120) * 1000;

/** A throwaway CA the deliverer is told to trust, and the receiver's certificate it signed. */
async function certificates(): Promise<{ ca: string; key: string; cert: string }> {
  const ca = await generate([{ name: 'commonName', value: 'bench CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', keyCertSign: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  return { ca: ca.cert, key: leaf.private, cert: leaf.cert };
}

interface Receiver {
  server: https.Server;
  port: number;
  received: number;
  /** Event-to-receipt latencies, in milliseconds. */
  latencies: number[];
  /** Settles when `expected` deliveries have arrived. */
  done: Promise<void>;
}

/** A local HTTPS receiver; `writtenAt[i]` is when event i's transaction committed. */
async function startReceiver(
  tls: { key: string; cert: string },
  expected: number,
  writtenAt: number[],
): Promise<Receiver> {
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  const counts = { received: 0, latencies: [] as number[] };
  const server = https.createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(204).end();
      const index = /BENCH-(\d+)/.exec(Buffer.concat(chunks).toString('utf8'))?.[1];
      if (index !== undefined) counts.latencies.push(performance.now() - writtenAt[Number(index)]!);
      counts.received += 1;
      if (counts.received === expected) resolveDone();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // The same object, so `received` stays live for the caller.
  return Object.assign(counts, { server, port: (server.address() as AddressInfo).port, done });
}

interface Workspace {
  org: { id: number; slug: string; name: string };
  userId: number;
  projectId: number;
}

/** A workspace, a project its creator is a member of, and the endpoints. */
async function seedWorkspace(ctx: AppContext, receiverPort: number): Promise<Workspace> {
  const now = systemClock.nowIso();
  const slug = `bench-${process.pid}-${Date.now()}`;
  const org = await ctx.db
    .insertInto('organizations')
    .values({ slug, name: 'Bench', created_at: now })
    .returning(['id', 'slug', 'name'])
    .executeTakeFirstOrThrow();
  const user = await ctx.db
    .insertInto('users')
    .values({
      organization_id: org.id,
      kind: 'service',
      email: null,
      name: 'bench',
      handle: 'bench',
      role: 'admin',
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const project = await ctx.db
    .insertInto('projects')
    .values({
      organization_id: org.id,
      key: 'BENCH',
      name: 'Bench',
      description: '',
      task_counter: 0,
      created_by: user.id,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await ctx.db
    .insertInto('project_memberships')
    .values({ project_id: project.id, user_id: user.id, role: 'admin', created_at: now, updated_at: now })
    .execute();
  const principal: Principal = {
    tokenId: 0,
    userId: user.id,
    userName: 'bench',
    userEmail: null,
    userKind: 'service',
    organizationId: org.id,
    organizationSlug: org.slug,
    organizationName: org.name,
    role: 'admin',
    scopes: ['webhooks:write', 'webhooks:read'],
    projectRestriction: null,
    expiresAt: null,
  };
  for (let i = 0; i < ENDPOINTS; i += 1) {
    const checked = await checkNewEndpoint(ctx, principal, {
      url: `https://127.0.0.1:${receiverPort}/hook/${i}`,
      project: project.id,
      events: ['task.updated'],
    });
    await inTransaction(ctx, (tx) => createEndpoint(tx, principal, checked));
  }
  return { org, userId: user.id, projectId: project.id };
}

/** Writes EVENTS task.updated events, one transaction each, noting in `writtenAt` when each committed. */
async function writeEvents(ctx: AppContext, workspace: Workspace, writtenAt: number[]): Promise<void> {
  let sliceStarted = performance.now();
  for (let i = 0; i < EVENTS; i += 1) {
    await ctx.db.transaction().execute((trx) =>
      recordEvent(trx, {
        type: 'task.updated',
        origin: {
          organization: workspace.org,
          actor: { id: workspace.userId, email: '', name: 'bench' },
          source: 'api',
          correlationId: `bench-${i}`,
        },
        projectId: workspace.projectId,
        occurredAt: systemClock.nowIso(),
        data: { task: { key: `BENCH-${i}`, title: `Task ${i}` }, changes: { title: { from: 'a', to: 'b' } } },
      }),
    );
    writtenAt[i] = performance.now();
    // SQLite calls are synchronous, so without a pause this loop would hold the event loop (and
    // the worker sharing it) until the last write. A busy server returns to the event loop
    // between batches of requests: here, every 10 ms of writing.
    if (writtenAt[i]! - sliceStarted >= 10) {
      await setImmediate();
      sliceStarted = performance.now();
    }
  }
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tasktracker-bench-'));
  const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${path.join(tmp, 'bench.db')}`;
  const database = openDatabase(databaseUrl);
  await migrateToLatest(database);
  const base = loadConfig({});
  const ctx = createAppContext({
    config: { ...base, webhooks: { ...base.webhooks, allowPrivateTargets: true } },
    database,
  });

  const { ca, key, cert } = await certificates();
  ctx.webhookIo = { ca };
  const writtenAt: number[] = [];
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20);
  const expected = EVENTS * ENDPOINTS;
  const receiver = await startReceiver({ key, cert }, expected, writtenAt);
  const workspace = await seedWorkspace(ctx, receiver.port);

  const log = pino({ level: 'warn' });
  const worker = startWorker(
    ctx,
    log,
    WORKER_JOBS.filter((job) => job.name === 'fan-out' || job.name === 'deliver-due'),
  );
  const timeout = setTimeout(() => {
    console.error(`gave up after ${TIMEOUT_MS / 1000} s: ${receiver.received}/${expected} received`);
    process.exit(1);
  }, TIMEOUT_MS);

  const started = performance.now();
  await writeEvents(ctx, workspace, writtenAt);
  const written = performance.now();
  await receiver.done;
  const finished = performance.now();
  clearTimeout(timeout);
  clearInterval(sampler);
  const latencies = receiver.latencies.sort((a, b) => a - b);
  const percentile = (p: number) =>
    Number((latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0).toFixed(1));

  await worker.stop();
  await new Promise((resolve) => receiver.server.close(resolve));
  await database.close();
  fs.rmSync(tmp, { recursive: true, force: true });

  const seconds = (finished - started) / 1000;
  console.log(
    JSON.stringify({
      database: ctx.dialect,
      events: EVENTS,
      endpoints: ENDPOINTS,
      deliveries: expected,
      write_seconds: Number(((written - started) / 1000).toFixed(3)),
      total_seconds: Number(seconds.toFixed(3)),
      events_per_second: Math.round(EVENTS / seconds),
      deliveries_per_second: Math.round(expected / seconds),
      p50_ms: percentile(50),
      p99_ms: percentile(99),
      peak_rss_mb: Math.round(peakRss / 1024 / 1024),
    }),
  );
}

await main();
