import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { createLogger } from '../../src/logger.ts';
import { freshDatabase, processUrl } from '../helpers/database.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { changeOf, isChange, openLive } from '../helpers/live.ts';
import { person, type Browser } from '../helpers/people.ts';
import { capturedLog } from '../helpers/log.ts';
import { startProcess, startServe, type ServiceProcess } from '../helpers/processes.ts';
import { startProxy, type ClosableProxy } from '../helpers/proxy.ts';

/**
 * A lost PostgreSQL connection (an administrator ending it, a server restart, a failover) must
 * not end any process: the connection is dropped and replaced, the outage is logged once, as
 * a structured line with no SQL in it, /readyz answers 503 while the database cannot be
 * reached, and everything, the LISTEN connection of live updates included, recovers by itself.
 * PostgreSQL only: a SQLite file has no connection to lose.
 */
const pgUrl = process.env.TEST_DATABASE_URL;

let names = 0;
/** An application_name of this test's own, so it ends only the connections it opened. */
const applicationName = () => `tt-test-${process.pid}-${++names}`;

/** Runs one statement on a connection of the test's own (not one of the service's). */
async function admin<T extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Ends every backend of the given application names (the pools' and the LISTEN connections'); returns how many. */
async function terminate(...names: string[]): Promise<number> {
  const [{ ended }] = (await admin<{ ended: number }>(
    `SELECT count(pg_terminate_backend(pid))::int AS ended FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid()
        AND application_name = ANY($1::text[] || array(SELECT n || '-listen' FROM unnest($1::text[]) n))`,
    [names],
  )) as [{ ended: number }];
  return ended;
}

/** Open connections by application_name. */
async function connectionsOf(name: string): Promise<number> {
  const [{ open }] = (await admin<{ open: number }>(
    `SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
    [name],
  )) as [{ open: number }];
  return open;
}

/** No statement text in a log: no SQL keyword followed by what a statement of ours would say. */
const SQL_TEXT = /\b(select|insert into|update|delete from)\s+["a-z*]/i;

function withApplicationName(url: string, name: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}application_name=${name}`;
}

describe.skipIf(!pgUrl)('PostgreSQL connection loss', { timeout: 120_000 }, () => {
  describe('in one process, under concurrent writes', () => {
    let base: DatabaseHandle;
    let h: TestHarness;
    let actor: Actor;
    const name = applicationName();
    const log = capturedLog();

    beforeAll(async () => {
      base = await freshDatabase();
      const database = openDatabase(withApplicationName(processUrl(base), name), { pgPoolSize: 4 });
      database.health.useLogger(createLogger('info', log.stream));
      h = await createHarness({ database });
      actor = await h.actor();
      await h.project(actor, 'LOSS');
    });
    afterAll(async () => {
      await h.close();
      await base.close();
    });

    it('survives its connections being ended mid-load: no crash, every 201 is stored, one line per outage without SQL', async () => {
      const answers: Array<{ status: number; key?: string; code?: string }> = [];
      let terminations = 0;
      let ended = 0;
      // Every 15 answers, while the other writers still have requests in flight, end every connection.
      const writer = async (id: number) => {
        for (let i = 0; i < 20; i++) {
          const res = await h.request('POST', '/api/v1/projects/LOSS/tasks/', {
            token: actor.token,
            body: { title: `writer ${id} task ${i}` },
          });
          answers.push({ status: res.status, key: res.body?.data?.key, code: res.body?.error?.code });
          if (answers.length % 15 === 0) {
            terminations++;
            ended += await terminate(name);
          }
        }
      };
      await Promise.all([0, 1, 2, 3].map(writer));

      // Idle connections are the ones nothing was listening on.
      expect((await h.request('GET', '/readyz')).status).toBe(200);
      ended += await terminate(name);
      expect(ended).toBeGreaterThan(terminations);

      expect(answers).toHaveLength(80);
      for (const answer of answers) {
        if (answer.status !== 201) expect(answer).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      }
      const created = answers.filter((a) => a.status === 201);
      expect(created.length).toBeGreaterThan(40);
      for (const { key } of created) {
        expect((await h.request('GET', `/api/v1/tasks/${key}/`, { token: actor.token })).status).toBe(200);
      }

      // Lost, then restored: structured lines, never the error object (its client holds prepared SQL).
      expect((await h.request('GET', '/readyz')).status).toBe(200);
      const events = log.lines.map((line) => line.event);
      expect(events).toContain('database_connection_lost');
      expect(events).toContain('database_connection_restored');
      expect(new Set(events)).toEqual(new Set(['database_connection_lost', 'database_connection_restored']));
      for (const line of log.lines.filter((l) => l.event === 'database_connection_lost')) {
        expect(line).toMatchObject({ level: 40, reason: expect.any(String) });
        expect(line).not.toHaveProperty('err');
      }
      expect(log.raw.filter((line) => SQL_TEXT.test(line))).toEqual([]);
    });
  });

  describe('/readyz and recovery while the server cannot be reached', () => {
    let base: DatabaseHandle;
    let h: TestHarness & { baseUrl?: string };
    let actor: Actor;
    let ann: Browser & { org: string };
    let proxy: ClosableProxy;
    const log = capturedLog();

    beforeAll(async () => {
      base = await freshDatabase();
      const server = new URL(pgUrl!);
      proxy = await startProxy({ hostname: server.hostname, port: Number(server.port || 5432) });
      const viaProxy = new URL(processUrl(base));
      viaProxy.host = `127.0.0.1:${proxy.port}`;
      const database = openDatabase(withApplicationName(viaProxy.toString(), applicationName()), { pgPoolSize: 3 });
      h = await createHarness({ database });
      database.health.useLogger(createLogger('info', log.stream));
      ann = await person(h);
      actor = await h.actor({ org: ann.org });
      await h.project(actor, 'DOWN');
      await h.addMember('DOWN', ann.userId);
    });
    afterAll(async () => {
      await h.close();
      await proxy.close();
      await base.close();
    });

    it('answers 503 while the database is unreachable, logs the outage once, and recovers without a restart', async () => {
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
      const live = await openLive(url, { headers: { cookie: ann.cookie } });
      await live.waitFor((e) => e.event === 'ready');
      expect((await h.request('GET', '/readyz')).status).toBe(200);

      proxy.down();
      for (let i = 0; i < 5; i++) {
        const ready = await h.request('GET', '/readyz');
        expect(ready.status).toBe(503);
        expect(ready.body.error.code).toBe('SERVICE_UNAVAILABLE');
        const write = await h.request('POST', '/api/v1/projects/DOWN/tasks/', {
          token: actor.token,
          body: { title: 'while down' },
        });
        expect(write.status).toBe(503);
        expect(write.body.error.code).toBe('SERVICE_UNAVAILABLE');
      }
      expect(log.lines.filter((l) => l.event === 'database_connection_lost')).toHaveLength(1);

      proxy.up();
      expect((await h.request('GET', '/readyz')).status).toBe(200);
      expect(log.lines.filter((l) => l.event === 'database_connection_restored')).toHaveLength(1);
      const after = await h.request('POST', '/api/v1/projects/DOWN/tasks/', {
        token: actor.token,
        body: { title: 'after the outage' },
      });
      expect(after.status).toBe(201);

      // The stream stayed open through the outage and its LISTEN connection came back: it hears of the write.
      const event = await live.waitFor((e) => isChange(e) && changeOf(e).key === after.body.data.key, {
        timeoutMs: 30_000,
      });
      expect(changeOf(event).action).toBe('created');
      live.close();
      expect(log.raw.filter((line) => SQL_TEXT.test(line))).toEqual([]);
    });

    it('costs no request when the connections idle in the pool were ended without a word: reads and writes run on new ones', async () => {
      // Every connection of the pool gets used, then sits idle.
      await Promise.all([1, 2, 3].map(() => h.request('GET', '/readyz')));
      proxy.dropSilently();
      const read = await h.request('GET', '/api/v1/projects/DOWN/', { token: actor.token });
      expect(read.status, read.text).toBe(200);
      proxy.dropSilently();
      const write = await h.request('POST', '/api/v1/projects/DOWN/tasks/', {
        token: actor.token,
        body: { title: 'after an idle timeout' },
      });
      expect(write.status, write.text).toBe(201);
      expect((await h.request('GET', `/api/v1/tasks/${write.body.data.key}/`, { token: actor.token })).status).toBe(
        200,
      );
    });
  });

  describe('serve and worker as processes', () => {
    let h: TestHarness;
    let actor: Actor;
    let ann: Browser & { org: string };
    const name = applicationName();
    const workerName = applicationName();
    let serve: ServiceProcess & { baseUrl: string };
    let worker: ServiceProcess;

    beforeAll(async () => {
      h = await createHarness();
      ann = await person(h);
      actor = await h.actor({ org: ann.org });
      await h.project(actor, 'PROC');
      await h.addMember('PROC', ann.userId);
      const url = processUrl(h.ctx.database);
      [serve, worker] = await Promise.all([
        startServe({ DATABASE_URL: withApplicationName(url, name), DATABASE_POOL_SIZE: '3' }),
        Promise.resolve(startProcess(['worker'], { DATABASE_URL: withApplicationName(url, workerName) })),
      ]);
      await worker.waitForLine((l) => l.msg === 'worker started');
    });
    afterAll(async () => {
      await Promise.all([serve?.stop(), worker?.stop()]);
      await h.close();
    });

    it('holds at most DATABASE_POOL_SIZE connections, plus its LISTEN connection', async () => {
      const live = await openLive(serve.baseUrl, { headers: { cookie: ann.cookie } });
      await live.waitFor((e) => e.event === 'ready');
      const reads = Array.from({ length: 30 }, () =>
        fetch(`${serve.baseUrl}/api/v1/projects/PROC/tasks/`, { headers: { authorization: `Bearer ${actor.token}` } }),
      );
      for (const res of await Promise.all(reads)) expect(res.status).toBe(200);
      // Idle connections stay pooled for 10 s: what the load opened is still there to count.
      expect(await connectionsOf(name)).toBe(3);
      expect(await connectionsOf(`${name}-listen`)).toBe(1);
      live.close();
    });

    it('keeps both running through ended connections, loses no acknowledged write, and keeps live updates flowing', async () => {
      const live = await openLive(serve.baseUrl, { headers: { cookie: ann.cookie } });
      await live.waitFor((e) => e.event === 'ready');
      const created: string[] = [];
      let failed = 0;
      let answered = 0;
      const post = (title: string) =>
        fetch(`${serve.baseUrl}/api/v1/projects/PROC/tasks/`, {
          method: 'POST',
          headers: { authorization: `Bearer ${actor.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title }),
        });
      const writer = async (id: number) => {
        for (let i = 0; i < 15; i++) {
          const res = await post(`writer ${id} task ${i}`);
          const body = (await res.json()) as { data?: { key: string }; error?: { code: string } };
          if (res.status === 201) created.push(body.data!.key);
          else {
            expect(res.status).toBe(503);
            expect(body.error!.code).toBe('SERVICE_UNAVAILABLE');
            failed++;
          }
          if (++answered % 10 === 0) await terminate(name, workerName);
        }
      };
      await Promise.all([0, 1, 2].map(writer));
      // Every connection of both processes, idle ones included, then one more write.
      expect(await terminate(name, workerName)).toBeGreaterThan(0);
      // A request may still meet a connection the server is ending at that moment: 503, and the
      // client retries (Retry-After: 1); the next one gets a new connection.
      let last = await post('after the last termination');
      for (let retries = 0; last.status === 503 && retries < 3; retries++)
        last = await post('after the last termination');
      expect(last.status).toBe(201);
      const lastKey = ((await last.json()) as { data: { key: string } }).data.key;

      // The stream's reads and its LISTEN connection were cut too: it stayed open and still hears of the write.
      await live.waitFor((e) => isChange(e) && changeOf(e).key === lastKey, { timeoutMs: 30_000 });
      live.close();

      expect(serve.alive(), serve.stderr.join('\n') + serve.stdout.join('\n')).toBe(true);
      expect(worker.alive(), worker.stderr.join('\n') + worker.stdout.join('\n')).toBe(true);
      expect(created.length + failed).toBe(45);
      for (const key of [...created, lastKey]) {
        const res = await h.request('GET', `/api/v1/tasks/${key}/`, { token: actor.token });
        expect(res.status, key).toBe(200);
      }
      for (const service of [serve, worker]) {
        // Every line is structured (JSON.parse throws otherwise), none carries SQL, none is a crash.
        const lines = service.lines();
        expect(lines.filter((l) => l.msg === 'worker job failed' || l.msg === 'unhandled error')).toEqual([]);
        expect(service.stdout.filter((line) => SQL_TEXT.test(line))).toEqual([]);
        expect(service.stderr).toEqual([]);
      }
      expect(serve.lines().map((l) => l.event)).toContain('database_connection_lost');
      expect(serve.lines().map((l) => l.event)).toContain('live_listen_connection_lost');
      expect(await serve.stop()).toBe(0);
      expect(await worker.stop()).toBe(0);
    });
  });
});
