/**
 * The servers of `npm run bench`, each in its own process so its peak RSS is its own:
 *
 *   node --import tsx bench/servers.ts app <database-url>   # the real service
 *   node --import tsx bench/servers.ts bare                 # node:http answering fixed JSON from memory
 *   node --import tsx bench/servers.ts fastify-pg <url>     # Fastify answering with plain pg queries (PostgreSQL baselines)
 *
 * Both report `{ port }` once listening, then answer IPC commands: `reset-rss`, `rss` (peak RSS
 * in MB since the last reset, sampled every 20 ms, and the CPU milliseconds used since), `bodies` (bare: the JSON to serve by path)
 * and `write-loop` (app: the baseline of a write scenario, run in a second app process that serves
 * no HTTP, see below).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

export type ServerCommand =
  | { cmd: 'reset-rss' }
  | { cmd: 'rss' }
  | { cmd: 'bodies'; bodies: Record<string, string> }
  | { cmd: 'write-loop'; token: string; durationMs: number; write: WriteLoop }
  | { cmd: 'actor'; actor: { id: number; organizationId: number } };

/**
 * What a write baseline repeats, without HTTP: create one task (through the service, or `raw-create`:
 * the five statements of bench/baseline-create.ts through the raw driver, rotating over
 * `projectKeys`); move each of `taskKeys` in turn back
 * and forth between two statuses (`statuses[0]` is where they start); create `size` tasks in
 * one bulk call.
 */
export type WriteLoop =
  | { kind: 'create'; projectKey: string }
  | { kind: 'raw-create'; projectKeys: string[]; actorId: number; organizationId: number }
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
    res
      .writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
      .end(body);
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

/** Who the baseline's creates are made by (the seeded bench account), set by the `actor` command. */
let baselineActor = { id: 0, organizationId: 0 };

/**
 * The PostgreSQL baselines: Fastify with a pg pool of the service's size, answering a task read
 * with one query and a task create with the five-statement transaction of bench/baseline-create.ts.
 */
async function fastifyPg(url: string): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const { default: pg } = await import('pg');
  const { CREATE_STATEMENTS, createParameters } = await import('./baseline-create.ts');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const fastify = Fastify({ logger: false });
  fastify.get<{ Params: { key: string } }>('/api/v1/tasks/:key/', async (request, reply) => {
    const { rows } = await pool.query('select * from tasks where key = $1', [request.params.key]);
    if (!rows[0]) return reply.code(404).send({ error: { code: 'NOT_FOUND' } });
    return { data: rows[0] };
  });
  fastify.post<{ Params: { key: string }; Body: { title: string; description?: string } }>(
    '/api/v1/projects/:key/tasks/',
    async (request, reply) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const input = {
          projectKey: request.params.key,
          title: request.body.title,
          description: request.body.description ?? '',
          actorId: baselineActor.id,
          organizationId: baselineActor.organizationId,
          now: new Date().toISOString(),
        };
        const {
          rows: [project],
        } = await client.query(CREATE_STATEMENTS.counter, [input.projectKey, input.organizationId]);
        const first = createParameters(input, project);
        const {
          rows: [task],
        } = await client.query(CREATE_STATEMENTS.task, first.task);
        const params = createParameters(input, project, task.id);
        await client.query(CREATE_STATEMENTS.change, params.change);
        await client.query(CREATE_STATEMENTS.activity, params.activity);
        await client.query(CREATE_STATEMENTS.outbox, params.outbox);
        await client.query('commit');
        return reply.code(201).send({ data: { key: first.key } });
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
  );
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  fastify.server.keepAliveTimeout = 60_000;
  process.on('message', (message: ServerCommand) => {
    if (message.cmd === 'actor') {
      baselineActor = message.actor;
      reply({ ok: true });
    } else common(message);
  });
  process.on(
    'SIGTERM',
    () =>
      void fastify
        .close()
        .then(() => pool.end())
        .then(() => process.exit(0)),
  );
  reply({ port: (fastify.server.address() as AddressInfo).port });
}

/** The SQLite create baseline: the five statements through better-sqlite3, one transaction each. */
async function rawCreateLoop(file: string, write: Extract<WriteLoop, { kind: 'raw-create' }>, durationMs: number) {
  const { default: BetterSqlite3 } = await import('better-sqlite3');
  const { CREATE_STATEMENTS, createParameters, sqliteStatement } = await import('./baseline-create.ts');
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const prepare = (text: string) => sqlite.prepare<unknown[]>(sqliteStatement(text));
  const statements = {
    counter: prepare(CREATE_STATEMENTS.counter),
    task: prepare(CREATE_STATEMENTS.task),
    change: prepare(CREATE_STATEMENTS.change),
    activity: prepare(CREATE_STATEMENTS.activity),
    outbox: prepare(CREATE_STATEMENTS.outbox),
  };
  const create = sqlite.transaction((i: number) => {
    const input = {
      projectKey: write.projectKeys[i % write.projectKeys.length]!,
      title: `Baseline task ${i}`,
      description: 'Created by the raw-driver loop of the benchmark.',
      actorId: write.actorId,
      organizationId: write.organizationId,
      now: new Date().toISOString(),
    };
    const project = statements.counter.get(input.projectKey, input.organizationId) as Parameters<
      typeof createParameters
    >[1];
    const { id } = statements.task.get(...createParameters(input, project).task) as { id: number };
    const params = createParameters(input, project, id);
    statements.change.run(...params.change);
    statements.activity.run(...params.activity);
    statements.outbox.run(...params.outbox);
  });
  const result = timedLoop(durationMs, async (i) => create(i));
  return result.finally(() => sqlite.close());
}

/** Runs `step` back to back for `durationMs`, timing each call. */
async function timedLoop(durationMs: number, step: (i: number) => Promise<unknown>) {
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
  return {
    requests: latencies.length,
    errors: 0,
    firstError: null,
    seconds,
    perSecond: buckets.slice(0, Math.max(1, Math.floor(seconds))),
    p50: at(50),
    p99: at(99),
    items: 0,
  };
}

async function app(url: string): Promise<void> {
  // Imported here so the bare server's RSS does not include the service's modules.
  const { buildApp } = await import('../src/app.ts');
  const { openDatabase, sqliteFile } = await import('../src/db/database.ts');
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
    if (write.kind === 'raw-create') return rawCreateLoop(sqliteFile(url), write, durationMs);
    const principal = await authenticate(ctx.db, ctx.clock, `Bearer ${token}`);
    const caller = { principal, origin: originFromPrincipal(principal, 'bench') };
    const description = 'Created by the in-process write loop of the benchmark.';
    const step = (i: number): Promise<unknown> => {
      if (write.kind === 'create')
        return inTransaction(ctx, (tx) =>
          createTask(tx, caller, write.projectKey, { title: `Baseline task ${i}`, description }),
        );
      if (write.kind === 'bulk') {
        return inTransaction(ctx, (tx) =>
          bulkCreate(
            tx,
            caller,
            write.projectKey,
            Array.from({ length: write.size }, (_, n) => ({ title: `Baseline bulk task ${i}.${n}`, description })),
          ),
        );
      }
      // Round i moves every task once: to statuses[1] on even rounds, back to statuses[0] on odd ones.
      const round = Math.floor(i / write.taskKeys.length);
      return inTransaction(ctx, (tx) =>
        updateTask(tx, caller, write.taskKeys[i % write.taskKeys.length]!, {
          status: write.statuses[(round + 1) % 2]!,
        }),
      );
    };
    return timedLoop(durationMs, step);
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
else if (role === 'fastify-pg' && url) await fastifyPg(url);
else if (role === 'app' && url) await app(url);
else {
  console.error('usage: servers.ts bare | app <database-url> | fastify-pg <postgres-url>');
  process.exit(2);
}
