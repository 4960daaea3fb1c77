/**
 * `npm run bench`: seeds a realistic workspace, starts the service and its baselines in their
 * own processes (a bare node:http server, and node:http answering from prepared statements),
 * drives them from another (load) process over loopback, and prints every scenario next to its
 * baseline measured in the same run. Writes bench/RESULTS.<dialect>.latest.md.
 *
 *   npm run bench                                    # SQLite in a temporary directory
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench npm run bench
 *   DATABASE_URL=sqlite:/tmp/bench.db npm run bench      # SQLite in a file that is kept afterwards
 *   TASKS=20000 CHANGES=100000 SECONDS=5 npm run bench   # a quicker, smaller run
 *   PROFILE=1 npm run bench                          # also a CPU profile of the service in bench/profiles/
 *   SCENARIOS=get,create npm run bench               # only some of: get list cursor search create status bulk feed webhooks
 *
 * Bounded: each scenario runs SECONDS (default 6; reads and creates after 1 s unmeasured for each server), the changes walk at most WALK_SECONDS
 * (default 90), the webhook run gives up after 120 s; the whole run aborts after 14 minutes.
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { systemClock } from '../src/clock.ts';
import { type Db, openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createOrganization, createUser } from '../src/modules/accounts/accounts.service.ts';
import { createToken } from '../src/identity/tokens.service.ts';
import { ALL_SCOPES } from '../src/identity/scopes.ts';
import { benchContext } from './context.ts';
import { pick, random, taskDescription, taskTitle } from './text.ts';
import type { LoadResult, LoadSpec } from './load.ts';
import type { ServerCommand, WriteLoop } from './servers.ts';

const PROJECTS = Number(process.env.PROJECTS ?? 20);
const TASKS = Number(process.env.TASKS ?? 100_000);
const CHANGES = Number(process.env.CHANGES ?? 1_000_000);
const SECONDS = Number(process.env.SECONDS ?? 6);
const WALK_SECONDS = Number(process.env.WALK_SECONDS ?? 90);
const WEBHOOK_EVENTS = Number(process.env.WEBHOOK_EVENTS ?? 3000);
const SCENARIOS = new Set(
  (process.env.SCENARIOS ?? 'get,list,cursor,search,create,status,bulk,feed,webhooks').split(','),
);
const here = path.dirname(new URL(import.meta.url).pathname);

const abort = setTimeout(() => {
  console.error('bench: gave up after 14 minutes');
  process.exit(1);
}, 14 * 60_000);

// ------------------------------------------------------------------ data generation

/** The default workflow's first two statuses, with transitions both ways (workflows/defaults.ts). */
const TODO = 'To Do';
const IN_PROGRESS = 'In Progress';
const WRITE_CLIENTS = 10;
const BULK_CLIENTS = 4;
const BULK_SIZE = 100;

const projectKey = (i: number) =>
  `P${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`;

interface Seeded {
  url: string;
  dialect: string;
  token: string;
  /** The bench account, its organization and its token, for the baselines' writes. */
  actor: { id: number; organizationId: number; tokenId: number };
  keys: string[];
  labelName: string;
  /** Tasks of the first project in its default status, for the status-change scenario. */
  todoKeys: string[];
  seconds: number;
}

type ApiCall = (method: 'GET' | 'POST', url: string, payload?: unknown) => Promise<unknown>;

interface SeededTask {
  id: number;
  key: string;
  projectId: number;
}

/** What seeding every project shares: the bench account, the two custom fields, one timestamp. */
interface Seeding {
  db: Db;
  call: ApiCall;
  botId: number;
  fieldIds: { text: number; number: number };
  now: string;
}

async function seedWorkspace(url: string): Promise<Seeded> {
  const started = performance.now();
  const database = openDatabase(url);
  await migrateToLatest(database);
  const ctx = benchContext(database);
  const app = await buildApp(ctx, { logger: false });
  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload: payload as object } : {}),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
    return res.json().data;
  };

  const slug = `bench-${Date.now()}`;
  await createOrganization(ctx, { name: 'Bench', slug });
  const bot = await createUser(ctx, { org: slug, kind: 'service', name: 'bench', role: 'admin' });
  const { id: tokenId, token } = await createToken(ctx, { accountId: bot.id, scopes: ALL_SCOPES });
  const organizationId = (
    await ctx.db.selectFrom('organizations').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()
  ).id;

  // Two custom fields on every project.
  const textField = (await call('POST', '/api/v1/custom-fields/', { name: 'Customer', type: 'text' })) as {
    id: number;
  };
  const numberField = (await call('POST', '/api/v1/custom-fields/', { name: 'Estimate', type: 'number' })) as {
    id: number;
  };
  const now = systemClock.nowIso();
  const seeding: Seeding = {
    db: ctx.db,
    call,
    botId: bot.id,
    fieldIds: { text: textField.id, number: numberField.id },
    now,
  };
  const keys: string[] = [];
  let taskIds: SeededTask[] = [];
  for (let p = 0; p < PROJECTS; p++) {
    taskIds = taskIds.concat(await seedProject(seeding, p));
    keys.push(projectKey(p));
  }

  const sampleKey = `${keys[0]}-1`;
  await seedChanges(ctx.db, JSON.stringify(await call('GET', `/api/v1/tasks/${sampleKey}/`)), sampleKey, taskIds, now);
  const todoKeys = await todoKeysOf(ctx.db, taskIds[0]!.projectId);
  // What autovacuum would have done by now on a real server (it does not run on the machines
  // here): planner statistics, and the GIN index's pending list merged.
  if (ctx.dialect === 'postgres') await sql`vacuum analyze`.execute(ctx.db);
  else await sql`pragma optimize`.execute(ctx.db);
  await app.close();
  await database.close();
  return {
    url,
    dialect: ctx.dialect,
    token,
    actor: { id: bot.id, organizationId, tokenId },
    keys,
    labelName: 'bug',
    todoKeys,
    seconds: (performance.now() - started) / 1000,
  };
}

/** Project number `index`, five labels, and its share of TASKS tasks, inserted 500 at a time. */
async function seedProject(seeding: Seeding, index: number): Promise<SeededTask[]> {
  const { db, call } = seeding;
  const key = projectKey(index);
  const project = (await call('POST', '/api/v1/projects/', { name: `Project ${key}`, key })) as { id: number };
  const labels: number[] = [];
  for (const name of ['bug', 'feature', 'ops', 'ux', 'security'])
    labels.push(((await call('POST', `/api/v1/projects/${key}/labels/`, { name })) as { id: number }).id);
  const defaults = await db.selectFrom('projects').selectAll().where('id', '=', project.id).executeTakeFirstOrThrow();
  const statuses = await db.selectFrom('statuses').select('id').where('project_id', '=', project.id).execute();
  const priorities = await db.selectFrom('priorities').select('id').where('project_id', '=', project.id).execute();
  const perProject = Math.ceil(TASKS / PROJECTS);
  const count = Math.min(perProject, TASKS - index * perProject);
  let tasks: SeededTask[] = [];
  for (let start = 1; start <= count; start += 500) {
    const rows = [];
    for (let n = start; n < Math.min(start + 500, count + 1); n++) {
      rows.push({
        project_id: project.id,
        number: n,
        key: `${key}-${n}`,
        title: taskTitle(),
        description: taskDescription(),
        task_type_id: defaults.default_task_type_id!,
        priority_id: pick(priorities).id,
        status_id: pick(statuses).id,
        version: 1,
        created_by: seeding.botId,
        created_at: seeding.now,
        updated_at: seeding.now,
      });
    }
    const inserted = await db.insertInto('tasks').values(rows).returning(['id', 'key']).execute();
    await seedTaskDetails(seeding, inserted, labels);
    tasks = tasks.concat(inserted.map((t) => ({ ...t, projectId: project.id })));
  }
  await db.updateTable('projects').set({ task_counter: count }).where('id', '=', project.id).execute();
  return tasks;
}

/** A batch of new tasks' labels (on two in three), custom field values and links. */
async function seedTaskDetails(
  { db, botId, fieldIds, now }: Seeding,
  inserted: Array<{ id: number; key: string }>,
  labels: number[],
): Promise<void> {
  await db
    .insertInto('task_labels')
    .values(
      inserted.flatMap((t, i) =>
        i % 3 === 2 ? [] : [{ task_id: t.id, label_id: labels[(t.id + i) % labels.length]! }],
      ),
    )
    .execute();
  await db
    .insertInto('task_custom_values')
    .values(
      inserted.flatMap((t) => [
        { task_id: t.id, field_id: fieldIds.text, value: JSON.stringify(`Customer ${t.id % 97}`) },
        { task_id: t.id, field_id: fieldIds.number, value: String(t.id % 13) },
      ]),
    )
    .execute();
  // Every tenth task blocks the next one.
  const links = inserted.flatMap((t, i) =>
    i % 10 === 0 && inserted[i + 1]
      ? [
          {
            from_task_id: t.id,
            to_task_id: inserted[i + 1]!.id,
            type: 'blocks' as const,
            created_by: botId,
            created_at: now,
          },
        ]
      : [],
  );
  if (links.length) await db.insertInto('task_links').values(links).execute();
}

/** Change records: the stored snapshot of a real task (`sample`, of `sampleKey`), re-keyed, spread over every task. */
async function seedChanges(db: Db, sample: string, sampleKey: string, tasks: SeededTask[], now: string): Promise<void> {
  for (let start = 0; start < CHANGES; start += 1000) {
    const rows = [];
    for (let i = start; i < Math.min(start + 1000, CHANGES); i++) {
      const task = tasks[i % tasks.length]!;
      rows.push({
        project_id: task.projectId,
        task_id: task.id,
        task_key: task.key,
        action: i < tasks.length ? ('created' as const) : ('updated' as const),
        task: sample.replace(`"${sampleKey}"`, `"${task.key}"`),
        changed_at: now,
      });
    }
    await db.insertInto('task_changes').values(rows).execute();
  }
}

async function todoKeysOf(db: Db, projectId: number): Promise<string[]> {
  const tasks = await db
    .selectFrom('tasks as t')
    .innerJoin('statuses as s', 's.id', 't.status_id')
    .select('t.key')
    .where('t.project_id', '=', projectId)
    .where('s.name', '=', TODO)
    .orderBy('t.id')
    .limit(2 * WRITE_CLIENTS)
    .execute();
  return tasks.map((t) => t.key);
}

// ------------------------------------------------------------------ processes

/**
 * The servers run compiled, as `tasktracker serve` runs after `npm install` (scripts/build-server.mjs),
 * not through tsx, whose loader thread would count in their memory.
 */
async function compiledServers(dir: string): Promise<string> {
  // Inside the repository, so the compiled code finds node_modules (and the web app) as the sources do.
  execFileSync(process.execPath, [path.join(here, '..', 'scripts', 'build-server.mjs'), 'bench/servers.ts', dir], {
    stdio: 'inherit',
  });
  return path.join(dir, 'servers.js');
}

interface RunningServer {
  child: ChildProcess;
  port: number;
}

/** The Node.js flags `npm start` runs the server with (package.json), which the service's processes run with here too. */
function serveFlags(): string[] {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(here, '..', 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const flags = /\bnode ((?:--\S+ )*)bin\/tasktracker\.js serve\b/.exec(scripts.start);
  if (!flags) throw new Error('package.json: the start script no longer runs `node [flags] bin/tasktracker.js serve`');
  return flags[1]!.split(' ').filter(Boolean);
}

function start(servers: string, args: string[]): Promise<RunningServer> {
  // PROFILE=1: the service writes a CPU profile (open it in Chrome DevTools) into bench/profiles/.
  const profile =
    process.env.PROFILE && args[0] === 'app' ? ['--cpu-prof', `--cpu-prof-dir=${path.join(here, 'profiles')}`] : [];
  const execArgv = args[0] === 'app' ? [...serveFlags(), ...profile] : profile;
  const child = fork(servers, args, { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve({ child, port: message.port }));
    child.once('exit', (code) => reject(new Error(`server ${args[0]} exited with ${code}`)));
  });
}

function ask<T>(child: ChildProcess, message: unknown): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (answer: T) => resolve(answer));
    child.send(message as ServerCommand);
  });
}

const loader = fork(path.join(here, 'load.ts'), [], {
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});

interface Measured extends LoadResult {
  rssMb: number;
  rate: number;
  /** CPU time (user + system) of the serving process per request: steadier than rates on a shared machine. */
  cpuMsPerRequest: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
};

async function measure(server: ChildProcess, run: () => Promise<LoadResult>): Promise<Measured> {
  await ask(server, { cmd: 'reset-rss' });
  const result = await run();
  const { rssMb, cpuMs } = await ask<{ rssMb: number; cpuMs: number }>(server, { cmd: 'rss' });
  if (result.errors) console.error(`  ${result.errors} errors, first: ${result.firstError}`);
  return {
    ...result,
    rssMb,
    rate: median(Array.from(result.perSecond, (n) => n ?? 0)),
    cpuMsPerRequest: result.requests ? cpuMs / result.requests : 0,
  };
}

const load = (spec: LoadSpec) => ask<LoadResult>(loader, spec);

// ------------------------------------------------------------------ scenarios

interface Row {
  scenario: string;
  measured: Measured;
  baseline: Measured | null;
  baselineName: string;
  unit: string;
  /** Items (tasks) per request when the unit counts items: the cell also shows req/s. */
  itemsPerRequest?: number;
  target: string;
  met: boolean | null;
}

/** What every scenario needs: the seeded workspace, the servers, and the rows measured so far. */
interface Bench {
  seeded: Seeded;
  postgres: boolean;
  app: RunningServer;
  /** A second process of the service, where the write baselines loop. */
  loops: RunningServer;
  bare: RunningServer;
  /** GET task's and create's baselines: node:http with prepared statements (bench/servers.ts http-db). */
  httpDb: RunningServer;
  headers: Record<string, string>;
  rows: Row[];
}

const DURATION_MS = SECONDS * 1000;
const WARMUP_MS = 1000;
const DESCRIPTION = 'Created by the load generator of the benchmark.';
const CREATE_BODY = JSON.stringify({ title: 'Created over HTTP by the benchmark', description: DESCRIPTION });

/** The last project: where the one-project and bulk creates write. */
const writeProject = (seeded: Seeded) => seeded.keys.at(-1)!;

async function startServers(seeded: Seeded): Promise<Bench> {
  const servers = await compiledServers(path.join(here, '..', 'dist', 'bench'));
  const app = await start(servers, ['app', seeded.url]);
  // The write baselines loop in a second process of the service, so their heap does not count
  // in the serving process's peak RSS (V8 keeps the heap a loop grew after it ends).
  const loops = await start(servers, ['app', seeded.url]);
  const bare = await start(servers, ['bare']);
  const postgres = seeded.dialect === 'postgres';
  const httpDb = await start(servers, ['http-db', seeded.url]);
  await ask(httpDb.child, { cmd: 'actor', actor: seeded.actor });
  const headers = { authorization: `Bearer ${seeded.token}`, accept: 'application/json' };
  return { seeded, postgres, app, loops, bare, httpDb, headers, rows: [] };
}

/** Fetches what the service answers, so the bare server serves byte-identical bodies. */
async function bodiesOf({ app, headers }: Bench, paths: string[]): Promise<Record<string, string>> {
  const bodies: Record<string, string> = {};
  for (const p of paths) {
    const res = await fetch(`http://127.0.0.1:${app.port}${p}`, { headers });
    if (res.status !== 200) throw new Error(`GET ${p} answered ${res.status}: ${await res.text()}`);
    bodies[p] = await res.text();
  }
  return bodies;
}

async function readScenario(
  bench: Bench,
  scenario: string,
  paths: string[],
  concurrency: number,
  target: string,
  check: (ratio: number, m: Measured) => boolean | null,
  against: 'bare' | 'http-db' = 'bare',
) {
  const { app, bare, httpDb, headers } = bench;
  const requests = paths.map((p) => ({ method: 'GET' as const, path: p }));
  console.log(`${scenario} ...`);
  const base = against === 'http-db' ? httpDb : bare;
  if (against === 'bare') await ask(bare.child, { cmd: 'bodies', bodies: await bodiesOf(bench, paths) });
  // Unmeasured first: what a server does once (compiling a serializer's validators on its first answer, JIT) is not a request's cost.
  for (const server of [base, app])
    await load({ port: server.port, headers, concurrency, durationMs: WARMUP_MS, requests });
  const baseline = await measure(base.child, () =>
    load({ port: base.port, headers, concurrency, durationMs: DURATION_MS, requests }),
  );
  const measured = await measure(app.child, () =>
    load({ port: app.port, headers, concurrency, durationMs: DURATION_MS, requests }),
  );
  const baselineName =
    against === 'bare' ? 'bare node:http, same JSON from memory' : 'node:http + one prepared read of the row';
  bench.rows.push({
    scenario: `${scenario} (${concurrency} clients)`,
    measured,
    baseline,
    baselineName,
    unit: 'req/s',
    target,
    met: check(measured.rate / baseline.rate, measured),
  });
}

async function getScenario(bench: Bench): Promise<void> {
  const perProject = Math.ceil(TASKS / PROJECTS);
  const taskPaths = Array.from(
    { length: 200 },
    () => `/api/v1/tasks/${pick(bench.seeded.keys)}-${1 + Math.floor(random() * perProject)}/`,
  );
  await readScenario(bench, 'GET task by key', taskPaths, 50, '≥ 0.5 × baseline', (ratio) => ratio >= 0.5, 'http-db');
}

async function listScenario(bench: Bench): Promise<void> {
  const listPaths = bench.seeded.keys.map(
    (k) => `/api/v1/projects/${k}/tasks/?status_category=todo&label=${bench.seeded.labelName}&limit=50`,
  );
  if (bench.postgres)
    await readScenario(
      bench,
      'list tasks, filtered (status category + label, 50 per page)',
      listPaths,
      10,
      'reported',
      () => null,
    );
  else
    await readScenario(
      bench,
      'list tasks, filtered (status category + label, 50 per page)',
      listPaths,
      10,
      '≤ 1.5 ms CPU per page',
      (_, m) => m.cpuMsPerRequest <= 1.5,
    );
}

/** Cursor pages of 200 anywhere in a project: the cursors come from a walk of the first project. */
async function cursorScenario(bench: Bench): Promise<void> {
  const cursorPaths: string[] = [];
  let cursor = '';
  for (let i = 0; i < 20; i++) {
    const p = `/api/v1/projects/${bench.seeded.keys[0]}/tasks/?limit=200&cursor=${cursor}`;
    cursorPaths.push(p);
    const page = JSON.parse((await bodiesOf(bench, [p]))[p]!) as {
      pagination: { next_cursor: string; has_more: boolean };
    };
    if (!page.pagination.has_more) break;
    cursor = page.pagination.next_cursor;
  }
  await readScenario(bench, 'cursor page of 200 tasks', cursorPaths, 10, 'reported', () => null);
}

async function searchScenario(bench: Bench): Promise<void> {
  const queries = [
    'login',
    'billing invoice',
    'deploy serv',
    'webhook retry timeout',
    'pass',
    'customer refund payment',
    'w1kx',
    'w2sx w3ax',
  ];
  const searchP99 = bench.postgres ? 80 : 40;
  await readScenario(
    bench,
    'search, 20 per page',
    queries.map((q) => `/api/v1/search/?q=${encodeURIComponent(q)}&limit=20`),
    10,
    `p99 ≤ ${searchP99} ms (${TASKS} tasks)`,
    (_, m) => m.p99 <= searchP99,
  );
}

// Write scenarios: the service over HTTP against the same service calls in a loop in a process
// of their own (servers.ts write-loop), which is what HTTP, authentication, rate limiting,
// validation, idempotency records and serialization add to.
async function writeScenario(
  bench: Bench,
  scenario: string,
  write: WriteLoop,
  spec: Omit<LoadSpec, 'port' | 'headers' | 'durationMs'>,
  itemsPerRequest = 1,
) {
  const { app, loops, headers } = bench;
  console.log(`${scenario} ...`);
  const baseline = await measure(loops.child, () =>
    ask<LoadResult>(loops.child, { cmd: 'write-loop', token: bench.seeded.token, durationMs: DURATION_MS, write }),
  );
  const measured = await measure(app.child, () => load({ port: app.port, headers, durationMs: DURATION_MS, ...spec }));
  const unit = itemsPerRequest === 1 ? 'req/s' : 'tasks/s';
  // A few large requests a second make per-second counts too coarse for a median: count them all instead.
  if (itemsPerRequest > 1) for (const m of [measured, baseline]) m.rate = (m.requests / m.seconds) * itemsPerRequest;
  bench.rows.push({
    scenario: `${scenario} (${spec.concurrency} clients)`,
    measured,
    baseline,
    baselineName: 'a loop of the same service call in its own process (same writes, no HTTP)',
    unit,
    ...(itemsPerRequest > 1 ? { itemsPerRequest } : {}),
    target: 'reported',
    met: null,
  });
}

// Creates: client i alternates between two projects of its own ("over 20 projects"), or every
// client creates in one project, where creates queue on that project's task counter.
const createsOver = (projects: string[]) =>
  Array.from({ length: WRITE_CLIENTS }, (_, i) =>
    [projects[i % projects.length]!, projects[(i + WRITE_CLIENTS) % projects.length]!].map((k) => ({
      method: 'POST' as const,
      path: `/api/v1/projects/${k}/tasks/`,
      body: CREATE_BODY,
    })),
  );

async function createScenarios(bench: Bench): Promise<void> {
  const { seeded, postgres, app, httpDb, headers } = bench;
  const scenario = `create task with Idempotency-Key, over ${seeded.keys.length} projects`;
  console.log(`${scenario} ...`);
  const spread = createsOver(seeded.keys);
  for (const server of [httpDb, app])
    await load({
      port: server.port,
      headers,
      concurrency: WRITE_CLIENTS,
      durationMs: WARMUP_MS,
      requests: [],
      perClient: spread,
      idempotencyPrefix: `bench-warmup-${server.port}-${Date.now()}`,
    });
  const baseline = await measure(httpDb.child, () =>
    load({
      port: httpDb.port,
      headers,
      concurrency: WRITE_CLIENTS,
      durationMs: DURATION_MS,
      requests: [],
      perClient: spread,
      idempotencyPrefix: `baseline-create-${Date.now()}`,
    }),
  );
  const measured = await measure(app.child, () =>
    load({
      port: app.port,
      headers,
      concurrency: WRITE_CLIENTS,
      durationMs: DURATION_MS,
      requests: [],
      perClient: spread,
      idempotencyPrefix: `bench-create-${Date.now()}`,
    }),
  );
  const wanted = postgres ? 0.3 : 0.25;
  bench.rows.push({
    scenario: `${scenario} (${WRITE_CLIENTS} clients)`,
    measured,
    baseline,
    baselineName:
      'node:http + one transaction of prepared statements: counter, task, change, activity, outbox, idempotency key',
    unit: 'req/s',
    target: `≥ ${wanted} × baseline`,
    met: measured.rate / baseline.rate >= wanted,
  });

  console.log('create task with Idempotency-Key, one project ...');
  const onOne = await measure(app.child, () =>
    load({
      port: app.port,
      headers,
      concurrency: WRITE_CLIENTS,
      durationMs: DURATION_MS,
      requests: [],
      perClient: createsOver([writeProject(seeded)]),
      idempotencyPrefix: `bench-one-${Date.now()}`,
    }),
  );
  bench.rows.push({
    scenario: `create task with Idempotency-Key, one project (${WRITE_CLIENTS} clients)`,
    measured: onOne,
    baseline: measured,
    baselineName: 'the service creating over 20 projects (row above)',
    unit: 'req/s',
    target: postgres ? '≥ 0.7 × over 20 projects' : 'reported',
    met: postgres ? onOne.rate / measured.rate >= 0.7 : null,
  });
}

async function statusScenario(bench: Bench): Promise<void> {
  // Each client owns one task and moves it To Do → In Progress → To Do …; the loop does the same with its own tasks.
  const [loopKeys, httpKeys] = [
    bench.seeded.todoKeys.slice(0, WRITE_CLIENTS),
    bench.seeded.todoKeys.slice(WRITE_CLIENTS),
  ];
  const move = (key: string, status: string) => ({
    method: 'PUT' as const,
    path: `/api/v1/tasks/${key}/`,
    body: JSON.stringify({ status }),
  });
  await writeScenario(
    bench,
    `status change along a transition (${TODO} ⇄ ${IN_PROGRESS})`,
    { kind: 'status', taskKeys: loopKeys, statuses: [TODO, IN_PROGRESS] },
    {
      concurrency: httpKeys.length,
      requests: [],
      perClient: httpKeys.map((key) => [move(key, IN_PROGRESS), move(key, TODO)]),
    },
  );
}

async function bulkScenario(bench: Bench): Promise<void> {
  const project = writeProject(bench.seeded);
  const body = JSON.stringify({
    tasks: Array.from({ length: BULK_SIZE }, (_, n) => ({ title: `Bulk-created task ${n}`, description: DESCRIPTION })),
  });
  await writeScenario(
    bench,
    `bulk create of ${BULK_SIZE} with Idempotency-Key`,
    { kind: 'bulk', projectKey: project, size: BULK_SIZE },
    {
      concurrency: BULK_CLIENTS,
      idempotencyPrefix: `bench-bulk-${Date.now()}`,
      requests: [{ method: 'POST', path: `/api/v1/projects/${project}/tasks/bulk/`, body }],
    },
    BULK_SIZE,
  );
}

async function feedScenario({ app, headers, rows }: Bench): Promise<void> {
  console.log('changes feed walk ...');
  const walk = await measure(app.child, () =>
    load({
      port: app.port,
      headers,
      concurrency: 1,
      durationMs: 0,
      walk: { maxMs: WALK_SECONDS * 1000 },
      requests: [{ method: 'GET', path: '/api/v1/changes/tasks/?limit=200' }],
    }),
  );
  walk.rate = Math.round(walk.items / walk.seconds);
  rows.push({
    scenario: `changes feed walk, limit 200 (${walk.items} of ${CHANGES + 0} records read)`,
    measured: walk,
    baseline: null,
    baselineName: '',
    unit: 'changes/s',
    target: '≥ 20,000 changes/s',
    met: walk.rate >= 20_000,
  });
}

/** Stops the servers and the load process, before the webhook run, which brings its own. */
async function stopProcesses({ app, loops, bare, httpDb }: Bench): Promise<void> {
  await new Promise((resolve) => {
    app.child.once('exit', resolve);
    app.child.kill('SIGTERM');
  });
  loops.child.kill('SIGTERM');
  bare.child.kill();
  httpDb.child.kill('SIGTERM');
  loader.kill();
}

function webhookScenario(): Row {
  console.log('webhook fan-out ...');
  const hooks = JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', path.join(here, 'webhooks.ts')], {
      env: { ...process.env, EVENTS: String(WEBHOOK_EVENTS) },
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .at(-1)!,
  ) as { deliveries_per_second: number; p50_ms: number; p99_ms: number; peak_rss_mb: number; total_seconds: number };
  const hookRow: Measured = {
    requests: WEBHOOK_EVENTS,
    errors: 0,
    firstError: null,
    seconds: hooks.total_seconds,
    perSecond: [],
    p50: hooks.p50_ms,
    p99: hooks.p99_ms,
    items: WEBHOOK_EVENTS,
    rssMb: hooks.peak_rss_mb,
    rate: hooks.deliveries_per_second,
    cpuMsPerRequest: 0,
  };
  return {
    scenario: `webhook fan-out, ${WEBHOOK_EVENTS} task.updated events, 1 HTTPS receiver (latency = event written → received)`,
    measured: hookRow,
    baseline: null,
    baselineName: '',
    unit: 'deliveries/s',
    target: '≥ 1,000 deliveries/s, p99 ≤ 1 s',
    met: hooks.deliveries_per_second >= 1000 && hooks.p99_ms <= 1000,
  };
}

/** The serving process's peak over every scenario it served (the webhook run is its own process); null when it served none. */
function peakRssRow(rows: Row[]): Row | null {
  const served = rows.filter((r) => !r.scenario.startsWith('webhook'));
  if (!served.length) return null;
  const peak = Math.max(...served.map((r) => r.measured.rssMb));
  const peakRow: Measured = {
    requests: 0,
    errors: 0,
    firstError: null,
    seconds: 0,
    perSecond: [],
    p50: 0,
    p99: 0,
    items: 0,
    rssMb: peak,
    rate: peak,
    cpuMsPerRequest: 0,
  };
  return {
    scenario: 'peak RSS of the serving process, every scenario',
    measured: peakRow,
    baseline: null,
    baselineName: '',
    unit: 'MB',
    target: '≤ 250 MB',
    met: peak <= 250,
  };
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tasktracker-bench-'));
  const url = process.env.DATABASE_URL ?? `sqlite:${path.join(tmp, 'bench.db')}`;
  console.log(`seeding ${PROJECTS} projects, ${TASKS} tasks, ${CHANGES} change records on ${url.split(':')[0]} ...`);
  const seeded = await seedWorkspace(url);
  console.log(`seeded in ${seeded.seconds.toFixed(0)} s`);

  const bench = await startServers(seeded);
  if (SCENARIOS.has('get')) await getScenario(bench);
  if (SCENARIOS.has('list')) await listScenario(bench);
  if (SCENARIOS.has('cursor')) await cursorScenario(bench);
  if (SCENARIOS.has('search')) await searchScenario(bench);
  if (SCENARIOS.has('create')) await createScenarios(bench);
  if (SCENARIOS.has('status')) await statusScenario(bench);
  if (SCENARIOS.has('bulk')) await bulkScenario(bench);
  if (SCENARIOS.has('feed')) await feedScenario(bench);
  await stopProcesses(bench);

  const { rows } = bench;
  if (SCENARIOS.has('webhooks')) rows.push(webhookScenario());
  const peakRss = peakRssRow(rows);
  if (peakRss) rows.push(peakRss);
  report(seeded, rows);
  fs.rmSync(tmp, { recursive: true, force: true });
  clearTimeout(abort);
}

// ------------------------------------------------------------------ report

function report(seeded: Seeded, rows: Row[]): void {
  const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1));
  const lines = [
    '| scenario | service | p50 / p99 ms | peak RSS | baseline | baseline p50 / p99 ms | baseline RSS | CPU ms per request, service / baseline | ratio | target | met |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) =>
      [
        r.scenario,
        `${fmt(r.measured.rate)} ${r.unit}${r.itemsPerRequest ? ` (${fmt(r.measured.rate / r.itemsPerRequest)} req/s)` : ''}`,
        r.unit === 'MB' ? '—' : `${r.measured.p50.toFixed(2)} / ${r.measured.p99.toFixed(2)}`,
        `${r.measured.rssMb} MB`,
        r.baseline
          ? `${fmt(r.baseline.rate)} ${r.unit}${r.itemsPerRequest ? ` (${fmt(r.baseline.rate / r.itemsPerRequest)} calls/s)` : ''} (${r.baselineName})`
          : '—',
        r.baseline ? `${r.baseline.p50.toFixed(2)} / ${r.baseline.p99.toFixed(2)}` : '—',
        r.baseline ? `${r.baseline.rssMb} MB` : '—',
        r.baseline && r.measured.cpuMsPerRequest
          ? `${r.measured.cpuMsPerRequest.toFixed(2)} / ${r.baseline.cpuMsPerRequest.toFixed(2)}`
          : '—',
        r.baseline ? (r.measured.rate / r.baseline.rate).toFixed(2) : '—',
        r.target,
        r.met === null ? '—' : r.met ? 'yes' : '**no**',
      ]
        .join(' | ')
        .replace(/^/, '| ')
        .concat(' |'),
    ),
  ];
  const git = (args: string[]) => {
    try {
      return execFileSync('git', args, { encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  };
  const packageVersion = (name: string) =>
    (
      JSON.parse(fs.readFileSync(path.join(here, '..', 'node_modules', name, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
  const machine = [
    `- Date: ${new Date().toISOString()}, commit ${git(['rev-parse', '--short', 'HEAD'])}`,
    `- Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, ${os.type()} ${os.release()}`,
    `- Node ${process.version} (the service's processes with \`${serveFlags().join(' ') || 'no flags'}\`, as \`npm start\` runs it); fastify ${packageVersion('fastify')}, better-sqlite3 ${packageVersion('better-sqlite3')}, pg ${packageVersion('pg')}, kysely ${packageVersion('kysely')}`,
    `- Database: ${seeded.dialect}; workspace: ${PROJECTS} projects, ${TASKS} tasks (descriptions of 30 words, 0-1 label, 2 custom field values, a blocks link on every tenth), ${CHANGES} change records; seeded in ${seeded.seconds.toFixed(0)} s`,
    `- Command: \`${['PROJECTS', 'TASKS', 'CHANGES', 'SECONDS', 'WALK_SECONDS', 'WEBHOOK_EVENTS', 'SCENARIOS']
      .filter((k) => process.env[k])
      .map((k) => `${k}=${process.env[k]} `)
      .join(
        '',
      )}${process.env.DATABASE_URL ? `DATABASE_URL=${process.env.DATABASE_URL.split(':')[0]}:… ` : ''}npm run bench\``,
    `- Each scenario: ${SECONDS} s of load from a separate process over loopback (node:http keep-alive agents); req/s is the median of the per-second counts; RSS is the serving process's peak during the scenario; reads and creates are measured after 1 s of the same load on each server, unmeasured; CPU per request is the serving process's user + system time over the scenario divided by the requests answered (the write baselines loop in a second process of the service, whose RSS and CPU are theirs).`,
  ];
  const text = [
    `## ${seeded.dialect} — ${new Date().toISOString().slice(0, 10)}`,
    '',
    ...machine,
    '',
    ...lines,
    '',
  ].join('\n');
  console.log(`\n${text}`);
  const file = path.join(here, `RESULTS.${seeded.dialect}.latest.md`);
  fs.writeFileSync(file, text);
  console.log(`written to ${path.relative(process.cwd(), file)} (copy into bench/RESULTS.md to publish)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
