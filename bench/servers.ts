/**
 * The servers of `npm run bench`, each in its own process so its peak RSS is its own:
 *
 *   node --import tsx bench/servers.ts app <database-url>   # the real service
 *   node --import tsx bench/servers.ts bare                 # node:http answering fixed JSON from memory
 *   node --import tsx bench/servers.ts http-db <url>        # node:http answering from prepared statements (both databases)
 *
 * Each reports `{ port }` once listening, then answers IPC commands: `reset-rss`, `rss` (peak RSS
 * in MB since the last reset, sampled every 20 ms, and the CPU milliseconds used since), `bodies` (bare: the JSON to serve by path),
 * `actor` (http-db: who its creates are made by) and `write-loop` (app: the baseline of a write
 * scenario, run in a second app process that serves no HTTP, see below).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

export type ServerCommand =
  | { cmd: 'reset-rss' }
  | { cmd: 'rss' }
  | { cmd: 'bodies'; bodies: Record<string, string> }
  | { cmd: 'write-loop'; token: string; durationMs: number; write: WriteLoop }
  | { cmd: 'actor'; actor: { id: number; organizationId: number; tokenId: number } };

/**
 * What a write baseline repeats, without HTTP: create one task through the service; move each of `taskKeys` in turn back
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

/** Who the baseline's creates are made by (the seeded bench account and its token), set by the `actor` command. */
let baselineActor = { id: 0, organizationId: 0, tokenId: 0 };

/**
 * The baselines of GET task and create against the limit of the database and node:http: a bare
 * node:http server answering a task read with one prepared statement (the row as JSON), and a
 * keyed create with one transaction of prepared statements: the five of bench/baseline-create.ts
 * and the idempotency key with its stored answer. PostgreSQL through a pg pool of the service's
 * size with named (prepared) statements, SQLite through better-sqlite3 with the service's pragmas.
 */
async function httpDb(url: string): Promise<void> {
  const { CREATE_STATEMENTS, IDEMPOTENCY_STATEMENT, createParameters, sqliteStatement } =
    await import('./baseline-create.ts');
  type Project = Parameters<typeof createParameters>[1];
  type Create = { projectKey: string; title: string; description: string; idempotencyKey: string; hash: string };
  let read: (key: string) => Promise<unknown>;
  let create: (input: Create) => Promise<string>;
  const inputOf = (c: Create) => ({
    projectKey: c.projectKey,
    title: c.title,
    description: c.description,
    actorId: baselineActor.id,
    organizationId: baselineActor.organizationId,
    now: new Date().toISOString(),
  });
  const answerOf = (key: string) => JSON.stringify({ data: { key } });
  if (url.startsWith('postgres')) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    const named = (name: string, text: string, values: unknown[]) => ({ name, text, values });
    read = async (key) => (await pool.query(named('task', 'select * from tasks where key = $1', [key]))).rows[0];
    create = async (c) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const input = inputOf(c);
        const project = (
          await client.query<Project>(
            named('counter', CREATE_STATEMENTS.counter, [input.projectKey, input.organizationId]),
          )
        ).rows[0]!;
        const first = createParameters(input, project);
        const task = (await client.query<{ id: number }>(named('task-insert', CREATE_STATEMENTS.task, first.task)))
          .rows[0]!;
        const params = createParameters(input, project, task.id);
        await client.query(named('change', CREATE_STATEMENTS.change, params.change));
        await client.query(named('activity', CREATE_STATEMENTS.activity, params.activity));
        await client.query(named('outbox', CREATE_STATEMENTS.outbox, params.outbox));
        const answer = answerOf(first.key);
        await client.query(
          named('idempotency', IDEMPOTENCY_STATEMENT, [
            baselineActor.tokenId,
            c.idempotencyKey,
            c.hash,
            answer,
            input.now,
            input.now,
          ]),
        );
        await client.query('commit');
        return answer;
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    };
  } else {
    const { default: BetterSqlite3 } = await import('better-sqlite3');
    const { sqliteFile } = await import('../src/db/database.ts');
    const sqlite = new BetterSqlite3(sqliteFile(url));
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const prepare = (text: string) => sqlite.prepare<unknown[]>(sqliteStatement(text));
    const statements = {
      read: prepare('select * from tasks where key = $1'),
      counter: prepare(CREATE_STATEMENTS.counter),
      task: prepare(CREATE_STATEMENTS.task),
      change: prepare(CREATE_STATEMENTS.change),
      activity: prepare(CREATE_STATEMENTS.activity),
      outbox: prepare(CREATE_STATEMENTS.outbox),
      idempotency: prepare(IDEMPOTENCY_STATEMENT),
    };
    const transaction = sqlite.transaction((c: Create) => {
      const input = inputOf(c);
      const project = statements.counter.get(input.projectKey, input.organizationId) as Project;
      const { id } = statements.task.get(...createParameters(input, project).task) as { id: number };
      const params = createParameters(input, project, id);
      statements.change.run(...params.change);
      statements.activity.run(...params.activity);
      statements.outbox.run(...params.outbox);
      const answer = answerOf(params.key);
      statements.idempotency.run(baselineActor.tokenId, c.idempotencyKey, c.hash, answer, input.now, input.now);
      return answer;
    });
    read = async (key) => statements.read.get(key);
    // BEGIN IMMEDIATE, as the service's SQLite transactions: the service's processes write to the same file.
    create = async (c) => transaction.immediate(c);
  }
  const send = (res: http.ServerResponse, status: number, body: string) =>
    res
      .writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      })
      .end(body);
  const TASK = /^\/api\/v1\/tasks\/([^/]+)\/$/;
  const CREATE = /^\/api\/v1\/projects\/([^/]+)\/tasks\/$/;
  const server = http.createServer((req, res) => {
    const path = req.url ?? '';
    const task = req.method === 'GET' ? TASK.exec(path) : null;
    const project = req.method === 'POST' ? CREATE.exec(path) : null;
    if (task) {
      read(decodeURIComponent(task[1]!)).then(
        (row) =>
          row ? send(res, 200, JSON.stringify({ data: row })) : send(res, 404, '{"error":{"code":"NOT_FOUND"}}'),
        (error: Error) => send(res, 500, JSON.stringify({ error: error.message })),
      );
    } else if (project) {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (text += chunk));
      req.on('end', () => {
        const body = JSON.parse(text) as { title: string; description?: string };
        create({
          projectKey: decodeURIComponent(project[1]!),
          title: body.title,
          description: body.description ?? '',
          idempotencyKey: String(req.headers['idempotency-key'] ?? ''),
          hash: createHash('sha256').update(text).digest('hex'),
        }).then(
          (answer) => send(res, 201, answer),
          (error: Error) => send(res, 500, JSON.stringify({ error: error.message })),
        );
      });
    } else send(res, 404, '{}');
  });
  server.keepAliveTimeout = 60_000;
  const port = await listen(server);
  process.on('message', (message: ServerCommand) => {
    if (message.cmd === 'actor') {
      baselineActor = message.actor;
      reply({ ok: true });
    } else common(message);
  });
  reply({ port });
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
  const { openDatabase } = await import('../src/db/database.ts');
  const { benchContext } = await import('./context.ts');
  const { originFromPrincipal } = await import('../src/events/record-event.ts');
  const { authenticate } = await import('../src/identity/auth.service.ts');
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
else if (role === 'http-db' && url) await httpDb(url);
else if (role === 'app' && url) await app(url);
else {
  console.error('usage: servers.ts bare | app <database-url> | http-db <database-url>');
  process.exit(2);
}
