/**
 * The servers of `npm run bench`, each in its own process so its peak RSS is its own:
 *
 *   node --import tsx bench/servers.ts app <database-url>   # the real service
 *   node --import tsx bench/servers.ts bare                 # node:http answering fixed JSON from memory
 *
 * Both report `{ port }` once listening, then answer IPC commands: `reset-rss`, `rss` (peak RSS
 * in MB since the last reset, sampled every 20 ms, and the CPU milliseconds used since), `bodies` (bare: the JSON to serve by path)
 * and `write-loop` (app: the in-process baseline of a write scenario, see below).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

export type ServerCommand =
  | { cmd: 'reset-rss' }
  | { cmd: 'rss' }
  | { cmd: 'bodies'; bodies: Record<string, string> }
  | { cmd: 'write-loop'; token: string; durationMs: number; write: WriteLoop };

/**
 * What the in-process baseline repeats: create one task; move each of `taskKeys` in turn back
 * and forth between two statuses (`statuses[0]` is where they start); create `size` tasks in
 * one bulk call.
 */
export type WriteLoop =
  | { kind: 'create'; projectKey: string }
  | { kind: 'status'; taskKeys: string[]; statuses: [string, string] }
  | { kind: 'bulk'; projectKey: string; size: number };

let peak = 0;
let cpuSince = process.cpuUsage();
const sample = () => (peak = Math.max(peak, process.memoryUsage.rss()));
setInterval(sample, 20).unref();

const reply = (message: unknown) => process.send!(message);

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function bare(): Promise<void> {
  let bodies: Record<string, string> = {};
  const server = http.createServer((req, res) => {
    const body = bodies[req.url ?? ''];
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
  });
  server.keepAliveTimeout = 60_000;
  const port = await listen(server);
  process.on('message', (message: ServerCommand) => {
    if (message.cmd === 'bodies') {
      bodies = message.bodies;
      reply({ ok: true });
    } else common(message);
  });
  reply({ port });
}

function common(message: ServerCommand): void {
  if (message.cmd === 'reset-rss') {
    peak = 0;
    cpuSince = process.cpuUsage();
    sample();
    reply({ ok: true });
  } else if (message.cmd === 'rss') {
    sample();
    const cpu = process.cpuUsage(cpuSince);
    reply({ rssMb: Math.round(peak / 1024 / 1024), cpuMs: (cpu.user + cpu.system) / 1000 });
  }
}

async function app(url: string): Promise<void> {
  // Imported here so the bare server's RSS does not include the service's modules.
  const { buildApp } = await import('../src/app.ts');
  const { openDatabase } = await import('../src/db/database.ts');
  const { benchContext } = await import('./context.ts');
  const { originFromPrincipal } = await import('../src/events/record-event.ts');
  const { authenticate } = await import('../src/modules/auth/auth.service.ts');
  const { bulkCreate } = await import('../src/modules/tasks/task-bulk.service.ts');
  const { createTask, updateTask } = await import('../src/modules/tasks/task-lifecycle.service.ts');
  const { inTransaction } = await import('../src/db/unit-of-work.ts');
  const database = openDatabase(url);
  const ctx = benchContext(database);
  const fastify = await buildApp(ctx, { logger: false });
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  fastify.server.keepAliveTimeout = 60_000;
  const port = (fastify.server.address() as AddressInfo).port;

  // The baseline of a write scenario: the same service call the route makes (task rows, change
  // records, activities, outbox events, in one transaction), one after another, with no HTTP,
  // no authentication per request, and no idempotency record.
  async function writeLoop(token: string, durationMs: number, write: WriteLoop) {
    const principal = await authenticate(ctx.db, ctx.clock, `Bearer ${token}`);
    const caller = { principal, origin: originFromPrincipal(principal, 'bench') };
    const description = 'Created by the in-process write loop of the benchmark.';
    const step = (i: number): Promise<unknown> => {
      if (write.kind === 'create') return inTransaction(ctx, (tx) => createTask(tx, caller, write.projectKey, { title: `Baseline task ${i}`, description }));
      if (write.kind === 'bulk') {
        return inTransaction(ctx, (tx) => bulkCreate(tx, caller, write.projectKey, Array.from({ length: write.size }, (_, n) => ({ title: `Baseline bulk task ${i}.${n}`, description }))));
      }
      // Round i moves every task once: to statuses[1] on even rounds, back to statuses[0] on odd ones.
      const round = Math.floor(i / write.taskKeys.length);
      return inTransaction(ctx, (tx) => updateTask(tx, caller, write.taskKeys[i % write.taskKeys.length]!, { status: write.statuses[(round + 1) % 2]! }));
    };
    const latencies: number[] = [];
    const buckets: number[] = [];
    const started = performance.now();
    for (let i = 0; performance.now() - started < durationMs; i++) {
      const t0 = performance.now();
      await step(i);
      const t1 = performance.now();
      latencies.push(t1 - t0);
      const second = Math.floor((t1 - started) / 1000);
      buckets[second] = (buckets[second] ?? 0) + 1;
    }
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
    return { requests: latencies.length, errors: 0, firstError: null, seconds, perSecond: buckets.slice(0, Math.max(1, Math.floor(seconds))), p50: at(50), p99: at(99), items: 0 };
  }

  // The serving process exits on SIGTERM so a --cpu-prof profile (PROFILE=1) gets written.
  process.on('SIGTERM', () => void fastify.close().then(() => process.exit(0)));
  process.on('message', (message: ServerCommand) => {
    if (message.cmd === 'write-loop') {
      writeLoop(message.token, message.durationMs, message.write).then(reply, (error: unknown) => {
        console.error(error);
        process.exit(1);
      });
    } else common(message);
  });
  reply({ port });
}

const [role, url] = process.argv.slice(2);
if (role === 'bare') await bare();
else if (role === 'app' && url) await app(url);
else {
  console.error('usage: servers.ts bare | app <database-url>');
  process.exit(2);
}
