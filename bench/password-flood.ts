/**
 * Whether an unauthenticated flood of the password forms (sign-in, first-run setup, accepting
 * an invitation, completing a password reset) slows a signed-in person's reads. A `tasktracker
 * serve` child process serves a seeded database; this process measures one person's reads of
 * a project's task list (through their session cookie, one after the other) first with nothing
 * else going on, then while FLOODERS concurrent clients post those forms as fast as answers
 * come back, each request from another made-up client address (the service trusts one proxy
 * hop, as behind a reverse proxy, so per-address throttling does not stop a spread-out flood:
 * the bound on password hashing must). Prints both figures of the same run, their ratio
 * against the 2× target, and what the flood was answered.
 *
 *   npm run bench:password-flood                         # temporary SQLite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench npm run bench:password-flood
 *
 * Bounded: READS reads per phase (default 300), gives up (exit code 1) after
 * BENCH_TIMEOUT_SECONDS (default 180).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { createAppContext } from '../src/context.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { addProjectMember, createOrganization, createUser } from '../src/modules/accounts/accounts.service.ts';
import { createToken } from '../src/identity/tokens.service.ts';
import { setPassword } from '../src/modules/people/people.service.ts';

const READS = Number(process.env.READS ?? 300);
const FLOODERS = Number(process.env.FLOODERS ?? 48);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_SECONDS ?? 180) * 1000;
const PASSWORD = 'a long bench password';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Seeded {
  email: string;
  readerId: number;
  projectKey: string;
  /** A service account's token that creates the project and its tasks. */
  token: string;
}

/** A seeded organization: a person with a password, and a service account to create their project with. */
async function seed(databaseUrl: string): Promise<Seeded> {
  const database = openDatabase(databaseUrl);
  await migrateToLatest(database);
  const ctx = createAppContext({ config: loadConfig({}), database });
  const slug = `flood-${Date.now()}`;
  await createOrganization(ctx, { name: slug, slug });
  const email = `reader-${Date.now()}@bench.test`;
  const reader = await createUser(ctx, { org: slug, kind: 'human', name: 'Reader', email, role: 'member' });
  await setPassword(ctx, reader.id, PASSWORD);
  const bot = await createUser(ctx, { org: slug, kind: 'service', name: 'seeder', role: 'admin' });
  const { token } = await createToken(ctx, { accountId: bot.id, scopes: ['projects:write', 'tasks:write'] });
  await database.close();
  return { email, readerId: reader.id, projectKey: `FL${Date.now() % 100000}`, token };
}

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tasktracker-bench-flood-'));
  const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${path.join(tmp, 'bench.db')}`;
  const seeded = await seed(databaseUrl);

  const port = await freePort();
  const server = spawn(process.execPath, [path.resolve('bin/tasktracker.js'), 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'error',
      TRUST_PROXY: 'true',
      RATE_LIMIT_TOKEN_BURST: '1000000',
      RATE_LIMIT_ORG_HOURLY: '1000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  while (
    !(await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    ))
  )
    await sleep(100);

  const bot = { authorization: `Bearer ${seeded.token}`, 'content-type': 'application/json' };
  const created = await fetch(`${base}/api/v1/projects/`, {
    method: 'POST',
    headers: bot,
    body: JSON.stringify({ name: 'Flood bench', key: seeded.projectKey }),
  });
  if (created.status !== 201) throw new Error(`project: ${created.status} ${await created.text()}`);
  for (let i = 0; i < 50; i++)
    await fetch(`${base}/api/v1/projects/${seeded.projectKey}/tasks/`, {
      method: 'POST',
      headers: bot,
      body: JSON.stringify({ title: `Task ${i}` }),
    });
  await addMemberThroughDatabase(databaseUrl, seeded.projectKey, seeded.readerId);
  if (databaseUrl.startsWith('postgres')) await vacuum(databaseUrl);

  const signedIn = await fetch(`${base}/api/console/sign-in/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.1' },
    body: JSON.stringify({ email: seeded.email, password: PASSWORD }),
  });
  if (signedIn.status !== 200) throw new Error(`sign-in: ${signedIn.status} ${await signedIn.text()}`);
  const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
  const readUrl = `${base}/api/v1/projects/${seeded.projectKey}/tasks/?limit=50`;

  const measureReads = async (): Promise<number[]> => {
    const times: number[] = [];
    for (let i = 0; i < READS; i++) {
      const started = performance.now();
      const res = await fetch(readUrl, { headers: { cookie } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`read: ${res.status}`);
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b);
  };

  await measureReads(); // warm-up
  const unloaded = await measureReads();

  let flooding = true;
  let sent = 0;
  const answers = new Map<number, number>();
  const forms: Array<[string, () => unknown]> = [
    ['/api/console/sign-in/', () => ({ email: `stranger${sent}@bench.test`, password: 'guessing a password' })],
    ['/api/console/invitations/accept/', () => ({ token: 'x'.repeat(43), name: 'X', password: 'guessing a password' })],
    ['/api/console/password-resets/complete/', () => ({ token: 'y'.repeat(43), password: 'guessing a password' })],
    [
      '/api/console/setup/',
      () => ({
        token: 'z'.repeat(43),
        organization: { name: 'X', slug: 'x' },
        name: 'X',
        email: 'x@bench.test',
        password: 'guessing a password',
      }),
    ],
  ];
  const flooder = async (n: number) => {
    while (flooding) {
      const [url, body] = forms[sent % forms.length]!;
      sent++;
      const address = `10.${n}.${(sent >> 8) & 255}.${sent & 255}`;
      const res = await fetch(`${base}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify(body()),
      }).catch(() => null);
      if (res) {
        await res.arrayBuffer();
        answers.set(res.status, (answers.get(res.status) ?? 0) + 1);
      }
    }
  };
  const flood = Array.from({ length: FLOODERS }, (_, n) => flooder(n));
  await sleep(1000); // the flood reaches full speed
  const floodStarted = performance.now();
  const sentBefore = sent;
  const loaded = await measureReads();
  const floodSeconds = (performance.now() - floodStarted) / 1000;
  const floodRate = (sent - sentBefore) / floodSeconds;
  flooding = false;
  await Promise.all(flood);

  const p50 = (t: number[]) => percentile(t, 0.5);
  const p95 = (t: number[]) => percentile(t, 0.95);
  const ratio = p50(loaded) / p50(unloaded);
  const dialect = databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite';
  console.log(
    `password flood (${dialect}, ${os.availableParallelism()} cores): a signed-in person's task-list reads, ${READS} each\n` +
      `  unloaded:            p50 ${p50(unloaded).toFixed(1)} ms, p95 ${p95(unloaded).toFixed(1)} ms\n` +
      `  during the flood:    p50 ${p50(loaded).toFixed(1)} ms, p95 ${p95(loaded).toFixed(1)} ms ` +
      `(${FLOODERS} flooders, ${floodRate.toFixed(0)} password-form requests/s from made-up addresses)\n` +
      `  p50 ratio ${ratio.toFixed(2)}x: ${ratio <= 2 ? 'within' : 'NOT within'} the 2x target\n` +
      `  flood answered: ${[...answers]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status} x${count}`)
        .join(', ')}`,
  );

  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  fs.rmSync(tmp, { recursive: true, force: true });
}

async function addMemberThroughDatabase(databaseUrl: string, projectKey: string, userId: number): Promise<void> {
  const database = openDatabase(databaseUrl);
  const ctx = createAppContext({ config: loadConfig({}), database });
  await addProjectMember(ctx, { projectKey, userId, role: 'member' });
  await database.close();
}

/** PostgreSQL here runs without autovacuum: fresh statistics before measuring. */
async function vacuum(databaseUrl: string): Promise<void> {
  const database = openDatabase(databaseUrl);
  await sql`VACUUM ANALYZE`.execute(database.db);
  await database.close();
}

const deadline = setTimeout(() => {
  console.error(`bench:password-flood gave up after ${TIMEOUT_MS / 1000} s`);
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
