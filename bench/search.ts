/**
 * Search latency at 100,000 tasks on SQLite (or PostgreSQL with DATABASE_URL=postgres://...).
 *
 *   npm run bench:search            # or: node --import tsx bench/search.ts [tasks] [requests]
 *
 * Seeds one project with generated titles (a 60-word product vocabulary) and descriptions (Zipf-distributed words) straight through the query builder
 * (the FTS index follows through its triggers), then runs the search endpoint in-process with
 * 10 concurrent clients and prints p50/p99 latency and requests per second.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.ts';
import { systemClock } from '../src/clock.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { benchContext } from './context.ts';
import { taskDescription, taskTitle } from './text.ts';
import { createOrganization, createUser } from '../src/modules/accounts/accounts.service.ts';
import { createToken } from '../src/identity/tokens.service.ts';

const TASKS = Number(process.argv[2] ?? 100_000);
const REQUESTS = Number(process.argv[3] ?? 2_000);
const CONCURRENCY = 10;

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tasktracker-bench-'));
  const url = process.env.DATABASE_URL?.startsWith('postgres')
    ? process.env.DATABASE_URL
    : `sqlite:${path.join(dir, 'bench.db')}`;
  const database = openDatabase(url);
  await migrateToLatest(database);
  const ctx = benchContext(database);
  const app = await buildApp(ctx, { logger: false });

  const slug = `bench-${Date.now()}`;
  await createOrganization(ctx, { name: 'Bench', slug });
  const bot = await createUser(ctx, { org: slug, kind: 'service', name: 'bench', role: 'admin' });
  const { token } = await createToken(ctx, { accountId: bot.id, scopes: ['tasks:write', 'projects:write'] });
  const auth = { authorization: `Bearer ${token}` };
  const key = `B${Date.now() % 100000}`;
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/projects/',
    headers: auth,
    payload: { name: 'Bench', key },
  });
  const project = created.json().data;
  const defaults = await ctx.db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', project.id)
    .executeTakeFirstOrThrow();

  const seedStart = performance.now();
  const now = systemClock.nowIso();
  for (let start = 1; start <= TASKS; start += 1000) {
    const rows = [];
    for (let n = start; n < Math.min(start + 1000, TASKS + 1); n++) {
      rows.push({
        project_id: project.id,
        number: n,
        key: `${key}-${n}`,
        title: taskTitle(),
        description: taskDescription(),
        task_type_id: defaults.default_task_type_id!,
        priority_id: defaults.default_priority_id!,
        status_id: defaults.default_status_id!,
        version: 1,
        created_at: now,
        updated_at: now,
      });
    }
    await ctx.db.insertInto('tasks').values(rows).execute();
  }
  await ctx.db.updateTable('projects').set({ task_counter: TASKS }).where('id', '=', project.id).execute();
  const seedSeconds = (performance.now() - seedStart) / 1000;

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
  const latencies: number[] = [];
  let next = 0;
  const runStart = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        const q = queries[next++ % queries.length]!;
        const t0 = performance.now();
        const res = await app.inject({
          method: 'GET',
          url: `/api/v1/search/?q=${encodeURIComponent(q)}&limit=20`,
          headers: auth,
        });
        latencies.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`search answered ${res.statusCode}: ${res.body}`);
      }
    }),
  );
  const seconds = (performance.now() - runStart) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(2);
  console.log(
    JSON.stringify({
      scenario: 'search',
      database: ctx.dialect,
      tasks: TASKS,
      requests: REQUESTS,
      concurrency: CONCURRENCY,
      seed_seconds: Number(seedSeconds.toFixed(1)),
      req_per_s: Math.round(REQUESTS / seconds),
      p50_ms: Number(pct(50)),
      p99_ms: Number(pct(99)),
    }),
  );
  await app.close();
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
