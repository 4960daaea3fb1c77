/**
 * How long a change takes to reach an open live stream when another process makes it: this
 * process serves the stream (as `serve` does), a `tasktracker serve` child process on the same
 * database takes the writes over HTTP. Prints, over CHANGES sequential task updates spaced at
 * random (so every phase of the SQLite poll is sampled), the time from sending each write to
 * its event's arrival (p50, p99, max) and whether all stayed under one second, then exits.
 *
 *   npm run bench:live                                   # 200 changes, temporary SQLite
 *   CHANGES=500 DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench npm run bench:live
 *   LONG_TRANSACTION=1 DATABASE_URL=postgres://... npm run bench:live
 *
 * LONG_TRANSACTION=1 (PostgreSQL) keeps a write transaction open in another database of the
 * same server (`postgres`) through every change, as a long batch job of another application
 * would, and checks at the end that it was still open.
 *
 * Bounded: gives up (exit code 1) after BENCH_TIMEOUT_SECONDS (default 120).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createParser } from 'eventsource-parser';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createAppContext } from '../src/context.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createOrganization, createUser } from '../src/modules/accounts/accounts.service.ts';
import { createToken } from '../src/identity/tokens.service.ts';
import { setPassword } from '../src/modules/people/people.service.ts';

const CHANGES = Number(process.env.CHANGES ?? 200);
const LONG_TRANSACTION = process.env.LONG_TRANSACTION === '1';
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_SECONDS ?? 120) * 1000;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tasktracker-bench-live-'));
  const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${path.join(tmp, 'bench.db')}`;
  const database = openDatabase(databaseUrl);
  await migrateToLatest(database);
  const ctx = createAppContext({ config: loadConfig({}), database });
  const slug = `live-bench-${Date.now()}`;
  await createOrganization(ctx, { name: slug, slug });
  const account = await createUser(ctx, { org: slug, kind: 'service', name: 'bench', role: 'admin' });
  const { token } = await createToken(ctx, { accountId: account.id, scopes: ['tasks:write', 'projects:write'] });
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  // The stream is a signed-in person's (the console takes session cookies only).
  const email = `${slug}@bench.test`;
  const watcher = await createUser(ctx, { org: slug, kind: 'human', name: 'Watcher', email, role: 'admin' });
  await setPassword(ctx, watcher.id, 'a long bench password');

  const app = await buildApp(ctx, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const appUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const streamUrl = `${appUrl}/api/console/live/`;
  const signedIn = await fetch(`${appUrl}/api/console/sign-in/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'a long bench password' }),
  });
  if (signedIn.status !== 200) throw new Error(`sign-in failed: ${signedIn.status} ${await signedIn.text()}`);
  const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;

  const port = await freePort();
  const writer = spawn(process.execPath, [path.resolve('bin/tasktracker.js'), 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'error',
      RATE_LIMIT_TOKEN_BURST: '1000000',
      RATE_LIMIT_ORG_HOURLY: '1000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const writerUrl = `http://127.0.0.1:${port}`;
  while (
    !(await fetch(`${writerUrl}/readyz`).then(
      (r) => r.ok,
      () => false,
    ))
  )
    await sleep(100);

  const key = `LB${Date.now() % 100000}`.slice(0, 10);
  const project = await fetch(`${writerUrl}/api/v1/projects/`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name: 'Live bench', key }),
  });
  const projectId = ((await project.json()) as { data: { id: number } }).data.id;
  const created = await fetch(`${writerUrl}/api/v1/projects/${key}/tasks/`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ title: 'v1' }),
  });
  const taskKey = ((await created.json()) as { data: { key: string } }).data.key;

  // Arrival time of each version of the task, as the stream reports it.
  const arrived = new Map<number, number>();
  const waiting = new Map<number, () => void>();
  const parser = createParser({
    onEvent: (event) => {
      if (event.event !== 'change') return;
      const change = JSON.parse(event.data) as { key: string | null; version: number | null };
      if (change.key !== taskKey || change.version === null) return;
      arrived.set(change.version, performance.now());
      waiting.get(change.version)?.();
    },
  });
  const joined = await fetch(`${writerUrl}/api/v1/memberships/`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ project: projectId, user: watcher.id, role: 'viewer' }),
  });
  if (joined.status !== 201) throw new Error(`membership: ${joined.status} ${await joined.text()}`);
  const stream = http.get(streamUrl, { headers: { cookie } }, (response) => {
    if (response.statusCode !== 200) throw new Error(`the stream answered ${response.statusCode}`);
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => parser.feed(chunk));
  });
  await sleep(500);

  let elsewhere: pg.Client | null = null;
  let elsewhereXid = '';
  if (LONG_TRANSACTION) {
    if (ctx.dialect !== 'postgres') throw new Error('LONG_TRANSACTION is for PostgreSQL');
    const url = new URL(databaseUrl);
    if (url.pathname === '/postgres') throw new Error('LONG_TRANSACTION needs a database other than `postgres`');
    url.pathname = '/postgres';
    url.search = '';
    elsewhere = new pg.Client({ connectionString: url.toString() });
    await elsewhere.connect();
    await elsewhere.query('BEGIN');
    await elsewhere.query('CREATE TEMP TABLE long_write (n integer)');
    await elsewhere.query('INSERT INTO long_write VALUES (1)');
    elsewhereXid = (await elsewhere.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid')).rows[0]!.xid;
  }

  const latencies: number[] = [];
  for (let version = 2; version < CHANGES + 2; version++) {
    await sleep(Math.random() * 300);
    const got = new Promise<void>((resolve) => waiting.set(version, resolve));
    const sent = performance.now();
    const res = await fetch(`${writerUrl}/api/v1/tasks/${taskKey}/`, {
      method: 'PUT',
      headers: auth,
      body: JSON.stringify({ title: `v${version}` }),
    });
    if (res.status !== 200) throw new Error(`write failed: ${res.status} ${await res.text()}`);
    await got;
    latencies.push(arrived.get(version)! - sent);
  }

  if (elsewhere) {
    const { rows } = await elsewhere.query<{ xid: string }>('SELECT pg_current_xact_id_if_assigned()::text AS xid');
    if (rows[0]!.xid !== elsewhereXid) throw new Error('the long transaction ended before the last change');
    await elsewhere.query('ROLLBACK');
    await elsewhere.end();
  }

  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
  console.log(
    `live (${ctx.dialect}): ${latencies.length} changes written by another process` +
      (elsewhere ? `, a write transaction open in another database throughout (xid ${elsewhereXid})` : '') +
      `; write sent -> event received ` +
      `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${latencies.at(-1)!.toFixed(1)} ms; ` +
      (latencies.at(-1)! < 1000 ? 'all within 1 s' : 'NOT all within 1 s'),
  );

  stream.destroy();
  writer.kill('SIGTERM');
  await new Promise((resolve) => writer.once('exit', resolve));
  await app.close();
  await database.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}

const deadline = setTimeout(() => {
  console.error(`bench:live gave up after ${TIMEOUT_MS / 1000} s`);
  process.exit(1);
}, TIMEOUT_MS);
deadline.unref();
main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
