import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processUrl } from '../helpers/database.ts';
import { projectId } from '../helpers/factory.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';

/**
 * Crash safety. A real `tasktracker serve` (API, webhook worker and scheduler in
 * one process, as deployed) runs under a write load with webhook deliveries in flight and is
 * SIGKILLed at seeded random moments, then restarted. Task creates and comments carry an
 * Idempotency-Key and are retried with it until answered. Afterwards: every acknowledged write
 * is there, each key did its work exactly once, the changes feed agrees with the tasks, every committed event reached the receiver and
 * nothing is stuck, idempotency keys of killed requests are usable again, and (SQLite) the file
 * passes integrity_check.
 *
 * CRASH_SEED and CRASH_KILLS override the seed (printed) and the number of kills. Each restart
 * loads the whole application (seconds on a busy machine), so the kills stop early once
 * CRASH_BUDGET_SECONDS have passed, keeping the file bounded in CI; the count done is printed.
 */
const KILLS = Number(process.env.CRASH_KILLS ?? 20);
const BUDGET_MS = Number(process.env.CRASH_BUDGET_SECONDS ?? 150) * 1000;
const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const WORKERS = 6;
const IDEMPOTENCY_LEASE_SECONDS = 1;
const WEBHOOK_LEASE_SECONDS = 6;
/** A killed request's key must be usable again well within this many 409 answers in a row. */
const MAX_CONFLICTS_PER_KEY = 60;
const NEXT_STATUS: Record<string, string> = { 'To Do': 'In Progress', 'In Progress': 'Done', Done: 'To Do' };

/** mulberry32: a small seeded generator, so a failing run can be repeated with its seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Received {
  eventId: string;
  body: string;
}

/** What the client may believe about a task it owns: every value an unanswered write could have left. */
interface Tracked {
  key: string;
  idem: string;
  titles: Set<string>;
  statuses: Set<string>;
  /** 'maybe' after a delete whose answer was lost. */
  deleted: 'no' | 'yes' | 'maybe';
}

class Unknown extends Error {}

describe('crash safety: serve SIGKILLed under write load with webhook deliveries in flight', () => {
  let h: TestHarness;
  let admin: Actor;
  let projectKey: string;
  let receiver: http.Server;
  let child: ChildProcess | undefined;
  let databaseUrl = '';
  let base: string | null = null;
  let up: Promise<void> = Promise.resolve();
  let markUp: () => void = () => undefined;
  const received: Received[] = [];
  const stderr: string[] = [];
  let restartMs = 0;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    projectKey = (await h.project(admin, 'CRASH')).key;
    databaseUrl = processUrl(h.ctx.database);
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          eventId: String(req.headers['x-service-event-id']),
          body: Buffer.concat(chunks).toString('utf8'),
        });
        // A short wait keeps some attempts in flight when the kill comes.
        setTimeout(() => res.writeHead(200).end('ok'), Math.floor(Math.random() * 40));
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    child?.kill('SIGKILL');
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    await h.close();
  });

  /** Starts `serve` on a fresh port and resolves once it answers /readyz. */
  async function start(): Promise<void> {
    const begun = Date.now();
    const port = await freePort();
    const proc = spawn(process.execPath, [path.resolve('bin/tasktracker.js'), 'serve'], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'error',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_LEASE_SECONDS: String(WEBHOOK_LEASE_SECONDS),
        IDEMPOTENCY_LEASE_SECONDS: String(IDEMPOTENCY_LEASE_SECONDS),
        RATE_LIMIT_TOKEN_BURST: '1000000',
        RATE_LIMIT_ORG_HOURLY: '1000000',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    proc.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
    child = proc;
    const url = `http://127.0.0.1:${port}`;
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null)
        throw new Error(`serve exited during start: ${stderr.join('')}`);
      const ready = await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      await sleep(50);
    }
    restartMs += Date.now() - begun;
    base = url;
    markUp();
  }

  async function kill(): Promise<void> {
    const proc = child!;
    up = new Promise((resolve) => (markUp = resolve));
    base = null;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGKILL');
    await exited;
  }

  /** One request to whichever server is up. Throws Unknown when no answer came back (the kill). */
  async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
    await up;
    const target = base;
    if (target === null) throw new Unknown();
    let res: Response;
    try {
      res = await fetch(`${target}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${admin.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch {
      throw new Unknown();
    }
    const text = await res.text().catch(() => {
      throw new Unknown();
    });
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  /** Walks a cursor-mode list to its end. */
  async function walk<T>(url: string, pick: (body: { data: unknown }) => T[]): Promise<T[]> {
    const rows: T[] = [];
    let cursor = '';
    for (;;) {
      const res = await call(
        'GET',
        `${url}${url.includes('?') ? '&' : '?'}limit=200&cursor=${encodeURIComponent(cursor)}`,
      );
      expect(res.status).toBe(200);
      rows.push(...pick(res.body));
      if (!res.body.pagination.has_more) return rows;
      cursor = res.body.pagination.next_cursor;
    }
  }

  it(
    'keeps every acknowledged write, the feed, deliveries and idempotency keys intact across kills',
    { timeout: 600_000 },
    async () => {
      const started = Date.now();
      console.log(`crash-safety: seed ${SEED} (CRASH_SEED=${SEED} to repeat), ${KILLS} kills, ${h.ctx.dialect}`);
      const random = seeded(SEED);
      const problems: string[] = [];
      const tasks: Tracked[] = [];
      const stats = {
        acknowledged: 0,
        creates: 0,
        comments: 0,
        updates: 0,
        statusChanges: 0,
        deletes: 0,
        unanswered: 0,
        idempotentRetries: 0,
        replayed: 0,
      };
      const comments: Array<{ task: Tracked; idem: string; id: number }> = [];

      await start();
      // Events committed before the endpoint existed (the project's creation) are not its to deliver.
      const { last: lastEventBefore } = await h.ctx.db
        .selectFrom('event_outbox')
        .select((eb) => eb.fn.coalesce(eb.fn.max('id'), eb.lit(0)).as('last'))
        .executeTakeFirstOrThrow();
      const endpoint = await call('POST', '/api/v1/webhooks/endpoints/', {
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        project: await projectId(h, projectKey),
      });
      expect(endpoint.status).toBe(201);
      const endpointId: number = endpoint.body.data.id;

      /**
       * A POST with an Idempotency-Key; a lost answer is retried with the same key and body until
       * the key answers. Returns the final answer, or null once it is recorded as a problem.
       */
      async function idempotentPost(url: string, body: unknown, idem: string, expected: number) {
        let conflicts = 0;
        let retried = false;
        for (;;) {
          let res;
          try {
            res = await call('POST', url, body, { 'idempotency-key': idem });
          } catch (error) {
            if (!(error instanceof Unknown)) throw error;
            if (!retried) stats.unanswered++;
            retried = true;
            conflicts = 0;
            continue;
          }
          if (retried) stats.idempotentRetries++;
          if (res.status === 409) {
            if (++conflicts > MAX_CONFLICTS_PER_KEY) {
              problems.push(`${idem}: still 409 after ${conflicts} tries (a killed request's claim is never released)`);
              return null;
            }
            await sleep(100);
            continue;
          }
          if (res.status !== expected) {
            problems.push(`${idem}: POST ${url} answered ${res.status} ${JSON.stringify(res.body)}`);
            return null;
          }
          if (res.headers.get('idempotent-replayed') === 'true') stats.replayed++;
          stats.acknowledged++;
          return res;
        }
      }

      async function create(worker: number, n: number): Promise<void> {
        const idem = `crash-${worker}-${n}`;
        const body = { title: `w${worker} #${n}`, description: idem };
        const res = await idempotentPost(`/api/v1/projects/${projectKey}/tasks/`, body, idem, 201);
        if (!res) return;
        stats.creates++;
        tasks.push({
          key: res.body.data.key,
          idem,
          titles: new Set([body.title]),
          statuses: new Set([res.body.data.status]),
          deleted: 'no',
        });
      }

      /** A comment whose text is its key, so a comment made twice by one key shows up in the final check. */
      async function comment(task: Tracked, n: number): Promise<void> {
        const idem = `${task.idem}-comment-${n}`;
        const res = await idempotentPost(`/api/v1/tasks/${task.key}/comments/`, { body: idem }, idem, 201);
        if (!res) return;
        stats.comments++;
        comments.push({ task, idem, id: res.body.data.id });
      }

      /** Learns a task's state after unanswered writes, checking it is one the writes could have left. */
      async function resolve(task: Tracked): Promise<void> {
        const res = await call('GET', `/api/v1/tasks/${task.key}/`);
        if (res.status === 404) {
          if (task.deleted === 'no') problems.push(`${task.key}: gone, but no delete was sent`);
          task.deleted = 'yes';
          return;
        }
        if (res.status !== 200) return void problems.push(`${task.key}: read answered ${res.status}`);
        if (task.deleted === 'yes') problems.push(`${task.key}: an acknowledged delete did not stick`);
        const { title, status } = res.body.data;
        if (!task.titles.has(title))
          problems.push(`${task.key}: title ${JSON.stringify(title)} not among ${JSON.stringify([...task.titles])}`);
        if (!task.statuses.has(status))
          problems.push(
            `${task.key}: status ${JSON.stringify(status)} not among ${JSON.stringify([...task.statuses])}`,
          );
        task.deleted = 'no';
        task.titles = new Set([title]);
        task.statuses = new Set([status]);
      }

      async function mutate(task: Tracked, pick: number, n: number): Promise<void> {
        if (task.deleted === 'yes') return;
        if (task.deleted === 'maybe' || task.titles.size > 1 || task.statuses.size > 1) {
          return resolve(task).catch((error: unknown) => {
            if (!(error instanceof Unknown)) throw error;
          });
        }
        if (pick < 0.15) return comment(task, n);
        const [status] = task.statuses;
        let kind: 'title' | 'status' | 'delete';
        if (pick < 0.55) kind = 'title';
        else if (pick < 0.87) kind = 'status';
        else kind = 'delete';
        try {
          if (kind === 'delete') {
            const res = await call('DELETE', `/api/v1/tasks/${task.key}/`);
            if (res.status !== 204) return void problems.push(`${task.key}: delete answered ${res.status}`);
            task.deleted = 'yes';
            stats.deletes++;
          } else {
            const value = kind === 'title' ? `${task.idem} v${n}` : NEXT_STATUS[status!]!;
            const res = await call('PUT', `/api/v1/tasks/${task.key}/`, { [kind]: value });
            if (res.status !== 200)
              return void problems.push(`${task.key}: update answered ${res.status} ${JSON.stringify(res.body)}`);
            if (kind === 'title') {
              task.titles = new Set([value]);
              stats.updates++;
            } else {
              task.statuses = new Set([value]);
              stats.statusChanges++;
            }
          }
          stats.acknowledged++;
        } catch (error) {
          if (!(error instanceof Unknown)) throw error;
          stats.unanswered++;
          if (kind === 'delete') task.deleted = 'maybe';
          else if (kind === 'title') task.titles.add(`${task.idem} v${n}`);
          else task.statuses.add(NEXT_STATUS[status!]!);
        }
      }

      let loadRunning = true;
      const load = Array.from({ length: WORKERS }, async (_, worker) => {
        const rnd = seeded(SEED + worker + 1);
        const mine = () => tasks.filter((t) => t.idem.startsWith(`crash-${worker}-`) && t.deleted !== 'yes');
        for (let n = 0; loadRunning; n++) {
          const own = mine();
          if (own.length < 3 || rnd() < 0.4) await create(worker, n);
          else await mutate(own[Math.floor(rnd() * own.length)]!, rnd(), n);
        }
      });

      let kills = 0;
      while (kills < KILLS && Date.now() - started < BUDGET_MS) {
        await sleep(50 + Math.floor(random() * 1200));
        await kill();
        kills++;
        await start();
      }
      await sleep(500);
      loadRunning = false;
      await Promise.all(load);
      // Settle what unanswered writes left open, so the final state can be checked exactly.
      for (const task of tasks)
        if (task.deleted === 'maybe' || task.titles.size > 1 || task.statuses.size > 1) await resolve(task);

      // Drain: the worker fans out every event and delivers every delivery (leases of killed workers expire).
      const drainDeadline = Date.now() + (WEBHOOK_LEASE_SECONDS + 60) * 1000;
      for (;;) {
        const open = await h.ctx.db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('endpoint_id', '=', endpointId)
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow();
        const unfanned = await h.ctx.db
          .selectFrom('event_outbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('fanned_out_at', 'is', null)
          .executeTakeFirstOrThrow();
        if (Number(open.n) === 0 && Number(unfanned.n) === 0) break;
        if (Date.now() > drainDeadline) {
          const stuck = await h.ctx.db
            .selectFrom('webhook_deliveries as d')
            .leftJoin('webhook_attempts as a', 'a.delivery_id', 'd.id')
            .select([
              'd.id',
              'd.attempts',
              'd.next_attempt_at',
              'd.locked_until',
              'a.number',
              'a.error',
              'a.started_at',
              'a.finished_at',
            ])
            .where('d.status', '=', 'pending')
            .limit(20)
            .execute();
          throw new Error(
            `not drained at ${new Date().toISOString()}: ${open.n} deliveries pending, ${unfanned.n} events not fanned out: ${JSON.stringify(stuck)}`,
          );
        }
        await sleep(200);
      }

      // 1. Every acknowledged write is there (resolve() compares each task with what the client knows).
      for (const task of tasks) await resolve(task);

      // 2. The changes feed agrees with the tasks: latest snapshot for live tasks, a deletion for deleted ones.
      const changes = await walk(
        `/api/v1/changes/tasks/`,
        (b) =>
          (b.data as { changes: Array<{ id: number; action: string; key: string; task?: Record<string, unknown> }> })
            .changes,
      );
      const ids = changes.map((c) => c.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);
      const lastChange = new Map(changes.map((c) => [c.key, c]));
      const live = await walk(
        `/api/v1/projects/${projectKey}/tasks/`,
        (b) => b.data as Array<Record<string, unknown> & { key: string }>,
      );
      expect(live.length).toBe(
        Number(
          (
            await h.ctx.db
              .selectFrom('tasks')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      );
      for (const task of live) {
        const last = lastChange.get(task.key);
        if (!last || last.action === 'deleted')
          problems.push(`${task.key}: live but the feed ends with ${last?.action ?? 'nothing'}`);
        else expect(last.task, `${task.key} in the feed`).toEqual(task);
      }
      const liveKeys = new Set(live.map((t) => t.key));
      for (const [key, last] of lastChange) {
        if (last.action === 'deleted' && liveKeys.has(key))
          problems.push(`${key}: the feed says deleted but the task exists`);
        if (last.action !== 'deleted' && !liveKeys.has(key))
          problems.push(`${key}: the feed says ${last.action} but the task is gone`);
      }
      for (const task of tasks) {
        if ((task.deleted === 'yes') === liveKeys.has(task.key))
          problems.push(`${task.key}: deleted=${task.deleted} but live=${liveKeys.has(task.key)}`);
      }

      // 3. Idempotency: each key created exactly one task, the one its (possibly replayed) 201 named.
      const createdBy = new Map<string, string[]>();
      for (const c of changes) {
        if (c.action !== 'created') continue;
        const idem = String(c.task!.description);
        createdBy.set(idem, [...(createdBy.get(idem) ?? []), c.key]);
      }
      for (const task of tasks) {
        const made = createdBy.get(task.idem) ?? [];
        if (made.length !== 1 || made[0] !== task.key)
          problems.push(`${task.idem}: created ${JSON.stringify(made)}, acknowledged as ${task.key}`);
      }

      // 3b. Each comment key made exactly one comment, the one its (possibly replayed) 201 named, on a task still there.
      const madeComments = await h.ctx.db.selectFrom('comments').select(['id', 'body']).execute();
      const commentsBy = new Map<string, number[]>();
      for (const c of madeComments) commentsBy.set(c.body, [...(commentsBy.get(c.body) ?? []), c.id]);
      for (const [idem, ids] of commentsBy) if (ids.length !== 1) problems.push(`${idem}: made ${ids.length} comments`);
      for (const c of comments) {
        const made = commentsBy.get(c.idem) ?? [];
        if (c.task.deleted === 'no' && (made.length !== 1 || made[0] !== c.id))
          problems.push(`${c.idem}: comments ${JSON.stringify(made)}, acknowledged as ${c.id}`);
      }

      // 4. Every event committed since the endpoint exists reached the receiver, and nothing is left in flight.
      const outbox = await h.ctx.db
        .selectFrom('event_outbox')
        .select(['event_id', 'type', 'envelope'])
        .where('id', '>', lastEventBefore)
        .execute();
      const deliveries = await h.ctx.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'event_id', 'status', 'locked_until'])
        .where('endpoint_id', '=', endpointId)
        .execute();
      const unfinishedAttempts = await h.ctx.db
        .selectFrom('webhook_attempts')
        .select('id')
        .where('finished_at', 'is', null)
        .execute();
      const deliveredEvents = new Set(deliveries.map((d) => d.event_id));
      const bodies = new Map<string, Set<string>>();
      for (const r of received) bodies.set(r.eventId, (bodies.get(r.eventId) ?? new Set()).add(r.body));
      const envelopeOf = new Map(outbox.map((e) => [e.event_id, e.envelope]));
      for (const e of outbox) {
        if (!deliveredEvents.has(e.event_id))
          problems.push(`event ${e.event_id} (${e.type}) has no delivery to the endpoint`);
        if (!bodies.has(e.event_id)) problems.push(`event ${e.event_id} (${e.type}) never reached the receiver`);
      }
      for (const d of deliveries) {
        if (d.status !== 'delivered' || d.locked_until !== null)
          problems.push(`delivery ${d.id}: ${d.status}, locked until ${d.locked_until}`);
      }
      for (const [eventId, seen] of bodies) {
        if (!envelopeOf.has(eventId)) problems.push(`received event ${eventId}, which no committed change produced`);
        else if (seen.size !== 1 || !seen.has(envelopeOf.get(eventId)!))
          problems.push(`event ${eventId} arrived with different bodies`);
      }
      // Each acknowledged create and delete produced its event.
      const eventsFor = new Map<string, Set<string>>();
      for (const e of outbox) {
        const key = (JSON.parse(e.envelope) as { data: { task?: { key?: string } } }).data.task?.key;
        if (key) eventsFor.set(key, (eventsFor.get(key) ?? new Set()).add(e.type));
      }
      for (const task of tasks) {
        if (!eventsFor.get(task.key)?.has('task.created')) problems.push(`${task.key}: no task.created event`);
        if (task.deleted === 'yes' && !eventsFor.get(task.key)?.has('task.deleted'))
          problems.push(`${task.key}: no task.deleted event`);
      }

      await kill();
      // 5. SQLite: the file survived every kill undamaged.
      if (h.ctx.dialect === 'sqlite') {
        const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(h.ctx.db);
        expect(rows).toEqual([{ integrity_check: 'ok' }]);
      }

      const duplicates = received.length - bodies.size;
      console.log(
        `crash-safety: ${kills} of ${KILLS} kills survived in ${((Date.now() - started) / 1000).toFixed(1)} s, ${(restartMs / 1000).toFixed(1)} s of it starting serve (${h.ctx.dialect}, seed ${SEED}); ` +
          `writes acknowledged ${stats.acknowledged} (creates ${stats.creates}, comments ${stats.comments}, title updates ${stats.updates}, status changes ${stats.statusChanges}, deletes ${stats.deletes}), ` +
          `unanswered ${stats.unanswered}, idempotent retries ${stats.idempotentRetries} (replayed ${stats.replayed}); tasks checked ${tasks.length}, live ${live.length}, changes ${changes.length}; ` +
          `events ${outbox.length}, delivered ${bodies.size}, duplicate receipts ${duplicates}`,
      );
      expect(problems).toEqual([]);
      expect(kills).toBeGreaterThan(0);
      expect(unfinishedAttempts).toEqual([]);
      expect(stats.unanswered).toBeGreaterThan(0);
      expect(tasks.length).toBeGreaterThan(0);
    },
  );
});
