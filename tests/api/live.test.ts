import { type ChildProcess, spawn } from 'node:child_process';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitDueSoon } from '../../src/worker/scheduler.ts';
import { processUrl } from '../helpers/database.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { changeOf, isChange, openLive, openWriteElsewhere, type LiveClient } from '../helpers/live.ts';
import { person, signIn, browserFrom, type Browser } from '../helpers/people.ts';
import { createTask, projectId } from '../helpers/factory.ts';
import { deleteMembershipRows } from '../helpers/storage.ts';

const bearer = (actor: { token: string }) => ({ authorization: `Bearer ${actor.token}` });
const cookie = (who: { cookie: string }) => ({ cookie: who.cookie });

async function listen(h: TestHarness): Promise<string> {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
}

/** Opens a stream with `who`'s session cookie and waits for its `ready` event (the stream's starting position). */
async function stream(base: string, who: { cookie: string }, lastEventId?: string): Promise<LiveClient> {
  const client = await openLive(base, {
    headers: { ...cookie(who), ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
  });
  expect(client.status, client.body).toBe(200);
  await client.waitFor((e) => e.event === 'ready');
  return client;
}

describe('live updates', () => {
  let h: TestHarness;
  let base: string;
  /** The person watching, and a service account whose token makes most changes. */
  let ann: Browser & { org: string };
  let bot: Actor;

  beforeAll(async () => {
    h = await createHarness({
      config: { live: { heartbeatMs: 15_000, pollMs: 250, maxStreamsPerPerson: 3, maxStreamsPerOrganization: 100 } },
    });
    base = await listen(h);
    ann = await person(h, { role: 'member' });
    bot = await h.actor({ org: ann.org, role: 'admin' });
    await h.project(bot, 'LIV');
    await h.addMember('LIV', ann.userId, 'member');
  });
  afterAll(() => h.close());

  it('sends every kind of change made through the API to an open stream, as it happens', async () => {
    const client = await stream(base, ann);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.headers['cache-control']).toBe('no-store');

    const task = await createTask(h, bot, 'LIV', { title: 'Watch me' });
    // On PostgreSQL a stream starts after the last change no running transaction can precede
    // (src/modules/live/live.repository.ts): while other transactions run on the server, the
    // project's own setup may still come first. What follows the task's creation is exact.
    const created = await client.waitFor((e) => isChange(e) && changeOf(e).key === task.key);
    expect(changeOf(created)).toEqual({ kind: 'task', project: 'LIV', key: task.key, action: 'created', version: 1 });

    const put = await h.request('PUT', `/api/v1/tasks/${task.key}/`, { token: bot.token, body: { title: 'Watched' } });
    expect(put.status, put.text).toBe(200);
    const comment = await h.request('POST', `/api/v1/tasks/${task.key}/comments/`, {
      token: bot.token,
      body: { body: 'Hello' },
    });
    expect(comment.status, comment.text).toBe(201);
    const project = await h.request('GET', '/api/v1/projects/?limit=100', { token: bot.token });
    const liv = project.body.data.find((p: { key: string }) => p.key === 'LIV');
    const patch = await h.request('PATCH', `/api/v1/projects/${liv.id}/`, {
      token: bot.token,
      body: { description: 'Now live' },
    });
    expect(patch.status, patch.text).toBe(200);
    const deleted = await h.request('DELETE', `/api/v1/tasks/${task.key}/`, { token: bot.token });
    expect(deleted.status, deleted.text).toBe(204);

    const from = client.events.indexOf(created) + 1;
    await client.waitFor((e) => isChange(e) && changeOf(e).action === 'deleted' && changeOf(e).kind === 'task', {
      from,
    });
    const after = client.events.slice(from).filter(isChange).map(changeOf);
    expect(after).toEqual([
      { kind: 'task', project: 'LIV', key: task.key, action: 'updated', version: 2 },
      { kind: 'comment', project: 'LIV', key: task.key, action: 'created', version: null },
      { kind: 'project', project: 'LIV', key: null, action: 'updated', version: null },
      { kind: 'task', project: 'LIV', key: task.key, action: 'deleted', version: null },
    ]);
    // Ids only grow, and each is one the stream can resume after.
    const ids = client.events.filter(isChange).map((e) => e.id!);
    expect(new Set(ids).size).toBe(ids.length);
    client.close();
  });

  it('sends a new project, its settings once per kind, and its first task', async () => {
    const client = await stream(base, ann);
    const project = await ann.request('POST', '/api/v1/projects/', { name: 'New', key: 'NEW' });
    expect(project.status, project.text).toBe(201);
    const created = await ann.request('POST', '/api/v1/projects/NEW/tasks/', { title: 'First' });
    expect(created.status, created.text).toBe(201);
    const task = created.body.data;
    await client.waitFor((e) => isChange(e) && changeOf(e).key === task.key);
    // Changes of LIV made before the stream opened may come first (see the test above).
    const changes = client.events
      .filter(isChange)
      .map(changeOf)
      .filter((c) => c.project === 'NEW');
    expect(changes[0]).toEqual({ kind: 'project', project: 'NEW', key: null, action: 'created', version: null });
    const settings = changes.filter((c) => c.kind === 'project').map((c) => c.action);
    expect(settings).toContain('members');
    expect(settings).toContain('statuses');
    expect(new Set(settings).size).toBe(settings.length);
    expect(changes.at(-1)).toEqual({ kind: 'task', project: 'NEW', key: task.key, action: 'created', version: 1 });
    client.close();
  });

  it('never sends changes of projects the person cannot see, and follows membership changes while open', async () => {
    const stranger = await h.actor({ role: 'admin' });
    await h.project(stranger, 'HID');
    const colleague = await h.actor({ org: ann.org, role: 'admin' });
    await h.project(colleague, 'PRV');
    const client = await stream(base, ann);

    await createTask(h, stranger, 'HID');
    await createTask(h, colleague, 'PRV');
    const marker = await createTask(h, bot, 'LIV');
    await client.waitFor((e) => isChange(e) && changeOf(e).key === marker.key);

    // Added to PRV while the stream is open: PRV's changes appear from then on.
    await h.addMember('PRV', ann.userId, 'viewer');
    const seen = await createTask(h, colleague, 'PRV');
    await client.waitFor((e) => isChange(e) && changeOf(e).key === seen.key);

    // Removed again (by hand, in the database): they stop.
    await deleteMembershipRows(h, ann.userId, await projectId(h, 'PRV'));
    const unseen = await createTask(h, colleague, 'PRV');
    const last = await createTask(h, bot, 'LIV');
    await client.waitFor((e) => isChange(e) && changeOf(e).key === last.key);

    const projects = client.events.filter(isChange).map((e) => changeOf(e));
    expect(projects.filter((c) => c.project === 'HID')).toEqual([]);
    expect(projects.filter((c) => c.project === 'PRV' && c.kind === 'task').map((c) => c.key)).toEqual([seen.key]);
    expect(projects.some((c) => c.key === unseen.key)).toBe(false);
    client.close();
  });

  it('resumes after a dropped connection from Last-Event-ID without missing or repeating a change', async () => {
    const first = await stream(base, ann);
    const before = await createTask(h, bot, 'LIV', { title: 'Before the drop' });
    const seen = await first.waitFor((e) => isChange(e) && changeOf(e).key === before.key);
    first.close();
    await first.ended;

    // Written while nobody listens.
    const missed = await createTask(h, bot, 'LIV', { title: 'During the drop' });
    await h.request('PUT', `/api/v1/tasks/${before.key}/`, {
      token: bot.token,
      body: { title: 'Changed during the drop' },
    });
    await h.request('POST', `/api/v1/tasks/${missed.key}/comments/`, {
      token: bot.token,
      body: { body: 'Also during' },
    });

    const second = await stream(base, ann, seen.id);
    expect(second.events[0]!.id).toBe(seen.id);
    const after = await createTask(h, bot, 'LIV', { title: 'After the reconnect' });
    await second.waitFor((e) => isChange(e) && changeOf(e).key === after.key);
    expect(second.events.filter(isChange).map(changeOf)).toEqual([
      { kind: 'task', project: 'LIV', key: missed.key, action: 'created', version: 1 },
      { kind: 'task', project: 'LIV', key: before.key, action: 'updated', version: 2 },
      { kind: 'comment', project: 'LIV', key: missed.key, action: 'created', version: null },
      { kind: 'task', project: 'LIV', key: after.key, action: 'created', version: 1 },
    ]);
    second.close();
  });

  it('resumes from the id of `ready` when the connection dropped before any change', async () => {
    const first = await stream(base, ann);
    const start = first.events[0]!.id!;
    first.close();
    await first.ended;
    const missed = await createTask(h, bot, 'LIV');
    const second = await stream(base, ann, start);
    const change = await second.waitFor((e) => isChange(e) && changeOf(e).key === missed.key);
    expect(changeOf(change).action).toBe('created');
    second.close();
  });

  it('sends changes the scheduler makes', async () => {
    const due = await createTask(h, bot, 'LIV', { due_date: '2026-11-21' });
    const client = await stream(base, ann);
    expect(await emitDueSoon(h.ctx)).toBe(1);
    const change = await client.waitFor((e) => isChange(e) && changeOf(e).action === 'due_soon');
    expect(changeOf(change)).toEqual({ kind: 'task', project: 'LIV', key: due.key, action: 'due_soon', version: 1 });
    client.close();
  });

  it('refuses a Last-Event-ID it did not send, a caller without a session, and a bearer token', async () => {
    const bad = await openLive(base, { headers: { ...cookie(ann), 'last-event-id': 'yesterday' } });
    await bad.ended;
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.code).toBe('VALIDATION_ERROR');
    const anonymous = await openLive(base);
    await anonymous.ended;
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body).error.code).toBe('UNAUTHENTICATED');
    const token = await openLive(base, { headers: bearer(bot) });
    await token.ended;
    expect(token.status).toBe(401);
    expect(JSON.parse(token.body).error.message).toMatch(/signed-in person/);
  });

  it('caps the streams one person holds open at once, whatever their sessions', async () => {
    const bob = await person(h, { org: ann.org });
    const open = [await stream(base, bob), await stream(base, bob), await stream(base, bob)];
    const refused = await openLive(base, { headers: cookie(bob) });
    await refused.ended;
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body).error.code).toBe('RATE_LIMITED');
    // Another session of the same person counts toward the same cap.
    const other = await openLive(base, { headers: cookie(browserFrom(h, await signIn(h, bob.email))) });
    await other.ended;
    expect(other.status).toBe(429);
    expect(JSON.parse(other.body).error.message).toMatch(/for one person/);

    open[0]!.close();
    let again: LiveClient | undefined;
    for (let i = 0; i < 100 && again?.status !== 200; i++) {
      again?.close();
      await sleep(20);
      again = await openLive(base, { headers: cookie(bob) });
    }
    expect(again!.status).toBe(200);
    for (const client of [...open, again!]) client.close();
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'PostgreSQL: re-opens its LISTEN connection when it drops, and sends what committed meanwhile',
    async () => {
      const client = await stream(base, ann);
      const { rows } = await sql<{
        ended: number;
      }>`select count(pg_terminate_backend(pid))::int as ended from pg_stat_activity
      where datname = current_database() and query = ${'LISTEN tasktracker_live'} and pid <> pg_backend_pid()`.execute(
        h.ctx.db,
      );
      expect(rows[0]!.ended).toBeGreaterThan(0);
      const task = await createTask(h, bot, 'LIV');
      const change = await client.waitFor((e) => isChange(e) && changeOf(e).key === task.key, { timeoutMs: 30_000 });
      expect(changeOf(change).action).toBe('created');
      client.close();
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)(
    'PostgreSQL: a long write transaction in another database of the server does not hold changes back',
    async () => {
      const client = await stream(base, ann);
      const elsewhere = await openWriteElsewhere(h.ctx.database.pgClientConfig!);
      try {
        // Snapshots of this database report it among the transactions still running.
        const { rows } = await sql<{
          xmin: string;
        }>`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`.execute(h.ctx.db);
        expect(Number(rows[0]!.xmin)).toBeLessThanOrEqual(elsewhere.xid);
        const task = await createTask(h, bot, 'LIV');
        const change = await client.waitFor((e) => isChange(e) && changeOf(e).key === task.key, { timeoutMs: 10_000 });
        expect(changeOf(change).action).toBe('created');
        expect(await elsewhere.isOpen()).toBe(true);
      } finally {
        await elsewhere.end();
        client.close();
      }
    },
  );

  it(
    'carries a change made through an API token in another process to an open stream of this one',
    { timeout: 120_000 },
    async () => {
      const client = await stream(base, ann);
      const server = await startServe(processUrl(h.ctx.database));
      try {
        const res = await fetch(`${server.url}/api/v1/projects/LIV/tasks/`, {
          method: 'POST',
          headers: { ...bearer(bot), 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'From elsewhere' }),
        });
        expect(res.status).toBe(201);
        const { data } = (await res.json()) as { data: { key: string } };
        const change = await client.waitFor((e) => isChange(e) && changeOf(e).key === data.key, { timeoutMs: 30_000 });
        expect(changeOf(change)).toEqual({
          kind: 'task',
          project: 'LIV',
          key: data.key,
          action: 'created',
          version: 1,
        });
      } finally {
        await server.stop();
        client.close();
      }
    },
  );
});

describe('live stream lifetime', () => {
  let h: TestHarness;
  let base: string;
  let ann: Browser & { email: string };
  let closed = false;

  beforeAll(async () => {
    h = await createHarness({
      config: { live: { heartbeatMs: 50, pollMs: 250, maxStreamsPerPerson: 5, maxStreamsPerOrganization: 100 } },
    });
    base = await listen(h);
    ann = await person(h);
  });
  afterAll(async () => {
    if (!closed) await h.close();
  });

  it('sends a keep-alive comment between changes', async () => {
    const client = await stream(base, ann);
    await client.waitForComment('keep-alive');
    client.close();
  });

  it('ends the stream once its session ends, and only that one', async () => {
    const other = browserFrom(h, await signIn(h, ann.email));
    const client = await stream(base, other);
    const staying = await stream(base, ann);
    const out = await other.request('POST', '/api/console/sign-out/');
    expect(out.status, out.text).toBe(204);
    await client.ended;
    // Several heartbeats later (each re-checks the session), the other session's stream is still open.
    expect(await Promise.race([staying.ended.then(() => 'ended'), sleep(300).then(() => 'open')])).toBe('open');
    staying.close();
  });

  it('ends open streams when the server shuts down', async () => {
    const client = await stream(base, ann);
    closed = true;
    await Promise.all([h.close(), client.ended]);
  });
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `tasktracker serve` in its own process on the test database; resolves once it answers /readyz. */
async function startServe(databaseUrl: string): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const stderr: string[] = [];
  const proc: ChildProcess = spawn(process.execPath, [path.resolve('bin/tasktracker.js'), 'serve'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  proc.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null)
      throw new Error(`serve exited during start: ${stderr.join('')}`);
    if (
      await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await sleep(50);
  }
  return {
    url,
    stop: async () => {
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}
