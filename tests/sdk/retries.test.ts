import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { createClient, isApiError, mayRepeat, NetworkError, type ClientOptions } from '@tasktracker/client';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';

/** A loopback port nothing listens on (yet): connections to it are refused. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Counts the attempts a client sends. */
function countingFetch(): { fetch: (request: Request) => Promise<Response>; attempts: string[] } {
  const attempts: string[] = [];
  return { attempts, fetch: (request) => (attempts.push(request.method), globalThis.fetch(request)) };
}

/**
 * A server that accepts connections and answers nothing (or only the headers, then nothing):
 * the real shape of a hung upstream.
 */
async function silentServer(
  mode: 'nothing' | 'headers-only',
): Promise<{ url: string; seen: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const state = { seen: 0 };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => {
      state.seen += 1;
      if (mode === 'headers-only')
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"success":');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get seen() {
      return state.seen;
    },
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}

const noJitter: ClientOptions['timing'] = { random: () => 0 };

describe('@tasktracker/client retries: which requests may be repeated', () => {
  it('GET, HEAD and OPTIONS, and POST only with an Idempotency-Key', () => {
    const at = 'http://127.0.0.1/api/v1/me/';
    expect(['GET', 'HEAD', 'OPTIONS'].map((method) => mayRepeat(new Request(at, { method })))).toEqual([
      true,
      true,
      true,
    ]);
    expect(mayRepeat(new Request(at, { method: 'POST', headers: { 'Idempotency-Key': 'k' } }))).toBe(true);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      expect(mayRepeat(new Request(at, { method, headers: { 'If-Match': '"v1"' } })), method).toBe(false);
  });
});

describe('@tasktracker/client retries across a real restart (refused connections, 503 while draining)', () => {
  let h: TestHarness;
  let actor: Actor;
  let port: number;
  let baseUrl: string;
  let second: FastifyInstance | undefined;
  let heldArrived: () => void;
  const held = new Promise<void>((resolve) => (heldArrived = resolve));

  beforeAll(async () => {
    h = await createHarness({
      beforeReady: (app) =>
        app.addHook('onRequest', async (request) => {
          if (request.headers['x-test'] === 'held') heldArrived();
        }),
    });
    actor = await h.actor();
    await h.project(actor, 'RS');
    port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await second?.close();
    await h.close();
  });

  it('a GET to a refused port is retried after the backoff, and succeeds once the server listens', async () => {
    const sent = countingFetch();
    const waits: number[] = [];
    const tt = createClient({
      baseUrl,
      token: actor.token,
      fetch: sent.fetch,
      timing: {
        ...noJitter,
        sleep: async (ms) => {
          waits.push(ms);
          if (waits.length === 2) await h.app.listen({ port, host: '127.0.0.1' });
        },
      },
    });
    const me = await tt.get('/api/v1/me/');
    expect(me.data.organization.slug).toBe(actor.org);
    expect(waits).toEqual([1000, 2000]);
    expect(sent.attempts).toEqual(['GET', 'GET', 'GET']);
  });

  it('while draining for a restart: an unkeyed POST gets the 503 at once, a keyed POST waits and lands on the new process', async () => {
    // A request in flight (its body not yet sent) keeps the old process draining.
    const inFlight = http.request(`${baseUrl}/api/v1/projects/RS/tasks/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${actor.token}`, 'content-type': 'application/json', 'x-test': 'held' },
    });
    const heldAnswer = new Promise<number>((resolve, reject) => {
      inFlight.on('response', (res) => (res.resume(), resolve(res.statusCode ?? 0)));
      inFlight.on('error', reject);
    });
    inFlight.write('{"title": "held');
    await held;
    const drained = h.app.drainAndClose(30_000);

    const sent = countingFetch();
    const waits: number[] = [];
    const tt = createClient({
      baseUrl,
      token: actor.token,
      fetch: sent.fetch,
      timing: {
        ...noJitter,
        sleep: async (ms) => {
          waits.push(ms);
          if (waits.length === 1) {
            // The old process finishes its last request and stops: the port now refuses.
            inFlight.end(' across the restart"}');
            expect(await heldAnswer).toBe(201);
            await drained;
          } else if (waits.length === 2) {
            second = await buildApp(h.ctx, { logger: false });
            await second.listen({ port, host: '127.0.0.1' });
          }
        },
      },
    });

    const unkeyed = await tt
      .post('/api/v1/projects/{project_key}/tasks/', { params: { path: { project_key: 'RS' } }, body: { title: 'x' } })
      .catch((error: unknown) => error);
    if (!isApiError(unkeyed, 'SERVICE_UNAVAILABLE')) throw new Error(`expected 503, got ${String(unkeyed)}`);
    expect(unkeyed.retryAfterSeconds).toBe(1);
    expect(waits).toEqual([]);

    const created = await tt.post('/api/v1/projects/{project_key}/tasks/', {
      params: { path: { project_key: 'RS' } },
      body: { title: 'Created across the restart' },
      upstreamId: 'restart-1',
    });
    expect(created.response.status).toBe(201);
    // Retry-After: 1 from the draining process, then the backoff after the refused connection.
    expect(waits).toEqual([1000, 2000]);
    expect(sent.attempts).toEqual(['POST', 'POST', 'POST', 'POST']);

    const again = await tt.post('/api/v1/projects/{project_key}/tasks/', {
      params: { path: { project_key: 'RS' } },
      body: { title: 'Created across the restart' },
      upstreamId: 'restart-1',
    });
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    const titles: string[] = [];
    for await (const task of tt.walk('/api/v1/projects/{project_key}/tasks/', {
      params: { path: { project_key: 'RS' } },
    }))
      titles.push(task.title);
    expect(titles).toEqual(['held across the restart', 'Created across the restart']);
  });

  it('an unkeyed POST, a PUT and a DELETE to a refused port fail at once with a NetworkError', async () => {
    const sent = countingFetch();
    const waits: number[] = [];
    const closedPort = await freePort();
    const tt = createClient({
      baseUrl: `http://127.0.0.1:${closedPort}`,
      token: actor.token,
      fetch: sent.fetch,
      timing: { sleep: async (ms) => void waits.push(ms) },
    });
    const task = { params: { path: { task_key: 'RS-1' } } };
    const failures = await Promise.all([
      tt
        .post('/api/v1/projects/{project_key}/tasks/', {
          params: { path: { project_key: 'RS' } },
          body: { title: 'x' },
        })
        .catch((e: unknown) => e),
      tt.put('/api/v1/tasks/{task_key}/', { ...task, body: { title: 'y' } }).catch((e: unknown) => e),
      tt.delete('/api/v1/tasks/{task_key}/', { ...task, ifMatch: '"v1"' }).catch((e: unknown) => e),
    ]);
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(NetworkError);
      expect(failure).toMatchObject({ attempts: 1, timedOut: false });
      expect(((failure as NetworkError).cause as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    }
    expect((failures[0] as NetworkError).message).toMatch(
      /^POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/projects\/RS\/tasks\/ failed after 1 attempt\(s\): fetch failed \(ECONNREFUSED\)$/,
    );
    expect(sent.attempts.sort()).toEqual(['DELETE', 'POST', 'PUT']);
    expect(waits).toEqual([]);

    // A GET gives up after maxRetries, with the waits doubling.
    const get = await createClient({
      baseUrl: `http://127.0.0.1:${closedPort}`,
      token: actor.token,
      retry: { maxRetries: 2, defaultDelayMs: 100 },
      timing: { random: () => 0.5, sleep: async (ms) => void waits.push(ms) },
    })
      .get('/api/v1/me/')
      .catch((e: unknown) => e);
    expect(get).toMatchObject({ name: 'NetworkError', attempts: 3, method: 'GET' });
    // Jitter takes up to half off each wait: random() = 0.5 takes a quarter.
    expect(waits).toEqual([75, 150]);
  });
});

describe('@tasktracker/client timeout and AbortSignal against servers that never answer', () => {
  let silent: Awaited<ReturnType<typeof silentServer>>;
  let stalled: Awaited<ReturnType<typeof silentServer>>;

  beforeAll(async () => {
    silent = await silentServer('nothing');
    stalled = await silentServer('headers-only');
  });
  afterAll(async () => {
    await silent.close();
    await stalled.close();
  });

  const instant = { sleep: async () => undefined };

  it('an attempt that outlives the timeout fails like a lost connection: a GET is retried, then a NetworkError says timedOut', async () => {
    const before = silent.seen;
    const tt = createClient({
      baseUrl: silent.url,
      token: 't',
      timeout: 150,
      retry: { maxRetries: 1 },
      timing: instant,
    });
    const error = await tt.get('/api/v1/me/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ timedOut: true, attempts: 2 });
    expect((error as NetworkError).message).toMatch(/failed after 2 attempt\(s\): timed out$/);
    expect(silent.seen - before).toBe(2);

    // The call's own timeout replaces the client's (here: none); an unkeyed POST is not repeated.
    const untimed = createClient({ baseUrl: silent.url, token: 't', timeout: 0, timing: instant });
    const post = await untimed
      .post('/api/v1/projects/{project_key}/tasks/', {
        params: { path: { project_key: 'X' } },
        body: { title: 'x' },
        timeout: 150,
      })
      .catch((e: unknown) => e);
    expect(post).toMatchObject({ name: 'NetworkError', timedOut: true, attempts: 1 });
  });

  it('the timeout covers the body too: headers then silence is a timeout', async () => {
    const tt = createClient({ baseUrl: stalled.url, token: 't', timeout: 200, retry: { maxRetries: 0 } });
    const error = await tt.get('/api/v1/me/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ timedOut: true, attempts: 1 });
  });

  it("the call's signal aborts it with the signal's reason and is never retried", async () => {
    const before = silent.seen;
    const tt = createClient({ baseUrl: silent.url, token: 't', timeout: 0, timing: instant });
    const controller = new AbortController();
    const pending = tt.get('/api/v1/me/', { signal: controller.signal }).catch((e: unknown) => e);
    while (silent.seen === before) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error('user gave up'));
    expect(await pending).toEqual(new Error('user gave up'));
    expect(silent.seen - before).toBe(1);
  });

  it("the client's signal aborts calls in flight and in a wait between retries, and every later call", async () => {
    const controller = new AbortController();
    const closedPort = await freePort();
    // Real sleeps: the long wait before the retry is cut short by the abort.
    const tt = createClient({
      baseUrl: `http://127.0.0.1:${closedPort}`,
      token: 't',
      signal: controller.signal,
      retry: { defaultDelayMs: 60_000 },
    });
    const waiting = tt.get('/api/v1/me/').catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    // Without the abort this would wait a minute, past the test's timeout.
    const reason = await waiting;
    expect(reason).toBeInstanceOf(DOMException);
    expect((reason as DOMException).name).toBe('AbortError');
    await expect(tt.get('/api/v1/me/')).rejects.toMatchObject({ name: 'AbortError' });
  });
});
