/**
 * Does following slow a write? A bulk update of 100 tasks through the API, on a project whose
 * tasks nobody follows (the baseline) and on one whose tasks 20 people follow each, alternated
 * round by round in the same process. Notifications are computed by the worker after the
 * commit, so the write should not care; then the worker's notify job drains what the rounds
 * produced, and its throughput is printed too. After seeding: `VACUUM ANALYZE` on PostgreSQL.
 *
 *   npm run bench:notifications                      # 10 rounds each, temporary SQLite
 *   ROUNDS=20 DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench npm run bench:notifications
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { addProjectMember, createOrganization, createUser } from '../src/modules/accounts/accounts.service.ts';
import { createToken } from '../src/identity/tokens.service.ts';
import { ALL_SCOPES } from '../src/identity/scopes.ts';
import { notifyAboutEvents } from '../src/modules/notifications/notify.service.ts';
import { benchContext } from './context.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 10);
const TASKS = 100;
const FOLLOWERS = 20;

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tasktracker-bench-'));
  const database = openDatabase(process.env.DATABASE_URL ?? `sqlite:${path.join(tmp, 'bench.db')}`);
  await migrateToLatest(database);
  const ctx = benchContext(database);
  const app = await buildApp(ctx, { logger: false });
  await app.ready();

  const slug = `bench-${process.pid}-${Date.now()}`;
  await createOrganization(ctx, { name: 'Bench', slug });
  const owner = await createUser(ctx, { org: slug, kind: 'service', name: 'owner', role: 'admin' });
  const { token } = await createToken(ctx, { accountId: owner.id, scopes: ALL_SCOPES });
  const call = async (method: 'POST' | 'PUT', url: string, body: unknown, bearer = token) => {
    const res = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${bearer}` },
      payload: body as never,
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return JSON.parse(res.body) as { data: unknown };
  };

  const keysOf = async (project: string) => {
    await call('POST', '/api/v1/projects/', { name: project, key: project });
    const created = await call('POST', `/api/v1/projects/${project}/tasks/bulk/`, {
      tasks: Array.from({ length: TASKS }, (_, i) => ({ title: `Task ${i}` })),
    });
    return (created.data as Array<{ key: string }>).map((t) => t.key);
  };
  const quiet = await keysOf('QUIET');
  const followed = await keysOf('FOLLOW');
  for (let i = 0; i < FOLLOWERS; i += 1) {
    const person = await createUser(ctx, { org: slug, kind: 'service', name: `follower-${i}`, role: 'member' });
    await addProjectMember(ctx, { projectKey: 'FOLLOW', userId: person.id, role: 'viewer' });
    const own = await createToken(ctx, { accountId: person.id, scopes: ['tasks:write'] });
    for (const key of followed) await call('POST', `/api/v1/tasks/${key}/follow/`, {}, own.token);
  }
  // Nothing of the setup is left for the worker to judge.
  while ((await notifyAboutEvents(ctx, 1000)) > 0);
  // Fresh statistics for the seeded tables, so PostgreSQL plans as it would on a settled database.
  if (database.dialect === 'postgres') await sql`VACUUM ANALYZE`.execute(database.db);

  const timings: Record<'quiet' | 'followed', number[]> = { quiet: [], followed: [] };
  const bulkUpdate = async (project: string, keys: string[], round: number) => {
    const started = performance.now();
    await call('POST', `/api/v1/projects/${project}/tasks/bulk-update/`, {
      tasks: keys.map((key) => ({ key, title: `Round ${round} ${key}` })),
    });
    return performance.now() - started;
  };
  // One warm-up round each, then alternated rounds so both see the same machine; which goes
  // first alternates too, so neither always follows the other's write (a WAL checkpoint).
  await bulkUpdate('QUIET', quiet, -1);
  await bulkUpdate('FOLLOW', followed, -1);
  for (let round = 0; round < ROUNDS; round += 1) {
    if (round % 2 === 0) {
      timings.quiet.push(await bulkUpdate('QUIET', quiet, round));
      timings.followed.push(await bulkUpdate('FOLLOW', followed, round));
    } else {
      timings.followed.push(await bulkUpdate('FOLLOW', followed, round));
      timings.quiet.push(await bulkUpdate('QUIET', quiet, round));
    }
  }

  const before = Number(
    (
      await ctx.db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const drainStarted = performance.now();
  let events = 0;
  for (let taken = -1; taken !== 0; events += taken === -1 ? 0 : taken) taken = await notifyAboutEvents(ctx, 200);
  const drainMs = performance.now() - drainStarted;
  const after = Number(
    (
      await ctx.db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const max = (values: number[]) => Math.max(...values);
  const ms = (value: number) => Number(value.toFixed(1));
  console.log(
    JSON.stringify(
      {
        database: database.dialect,
        rounds: ROUNDS,
        tasks_per_bulk_update: TASKS,
        followers_per_task: FOLLOWERS,
        bulk_update_ms_no_followers: { median: ms(median(timings.quiet)), max: ms(max(timings.quiet)) },
        bulk_update_ms_20_followers: { median: ms(median(timings.followed)), max: ms(max(timings.followed)) },
        notify: {
          events,
          notifications: after - before,
          ms: ms(drainMs),
          notifications_per_second: Math.round(((after - before) / drainMs) * 1000),
        },
      },
      null,
      2,
    ),
  );
  await app.close();
  await database.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}

await main();
