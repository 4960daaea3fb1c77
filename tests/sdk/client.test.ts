import { createRequire } from 'node:module';
import {
  ApiError,
  createClient,
  idempotencyKey,
  ifMatch,
  isApiError,
  retryAfterMs,
  updateWithETag,
  type TaskTrackerClient,
} from '@tasktracker/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/http/errors.ts';
import type { Actor, TestHarness } from '../helpers/harness.ts';
import { listeningHarness } from '../helpers/listening.ts';

/** Counts the requests a client sends, to check how many pages or retries it took. */
function countingFetch(): { fetch: (request: Request) => Promise<Response>; requests: Request[] } {
  const requests: Request[] = [];
  return { requests, fetch: (request) => (requests.push(request.clone()), globalThis.fetch(request)) };
}

describe('@tasktracker/client against the real server', () => {
  let h: TestHarness & { baseUrl: string };
  let actor: Actor;
  let tt: TaskTrackerClient;
  const sent = countingFetch();

  beforeAll(async () => {
    h = await listeningHarness();
    actor = await h.actor();
    await h.project(actor, 'SDK');
    tt = createClient({ baseUrl: h.baseUrl, token: actor.token, fetch: sent.fetch });
  });
  afterAll(() => h.close());

  const task = (key: string) => ({ params: { path: { task_key: key } } });
  const inSdk = { path: { project_key: 'SDK' } };

  it('typed requests: the whole body, its data, the ETag and the Response', async () => {
    const created = await tt.post('/api/v1/projects/{project_key}/tasks/', {
      params: inSdk,
      body: { title: 'From the SDK' },
    });
    expect(created.response.status).toBe(201);
    expect(created.body.success).toBe(true);
    expect(created.data).toMatchObject({ key: 'SDK-1', title: 'From the SDK', project: 'SDK' });
    expect(created.etag).toBe('"v1"');
    const read = await tt.get('/api/v1/tasks/{task_key}/', task('SDK-1'));
    expect(read.data.title).toBe('From the SDK');
    expect(read.response.headers.get('x-request-id')).toBeTruthy();
    const me = await tt.get('/api/v1/me/');
    expect(me.data).toMatchObject({ organization: { slug: actor.org } });
  });

  it('upstreamId derives one Idempotency-Key per thing created: a retry replays, another id creates', async () => {
    const create = (upstreamId: string, title: string) =>
      tt.post('/api/v1/projects/{project_key}/tasks/', { params: inSdk, body: { title }, upstreamId });
    const first = await create('jira-4711', 'Mirror of JIRA-4711');
    const retry = await create('jira-4711', 'Mirror of JIRA-4711');
    expect(retry.data.key).toBe(first.data.key);
    expect(retry.response.headers.get('idempotent-replayed')).toBe('true');
    const other = await create('jira-4712', 'Mirror of JIRA-4712');
    expect(other.data.key).not.toBe(first.data.key);
    const keys = sent.requests.slice(-3).map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^tt1-[0-9a-f]{64}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    // The key names the target too: the same upstream id sent elsewhere is a different creation.
    expect(keys[0]).toBe(
      idempotencyKey('post', '/api/v1/projects/{project_key}/tasks/', '{"project_key":"SDK"}', 'jira-4711'),
    );

    // The same upstream id with a different body is refused, as the same key would be.
    const clash = await create('jira-4711', 'Something else').catch((error: unknown) => error);
    expect(isApiError(clash, 'CONFLICT')).toBe(true);
  });

  it('idempotencyKey is stable, 68 printable characters, and keeps its parts apart', () => {
    expect(idempotencyKey('a', 1)).toBe(idempotencyKey('a', 1));
    // The same key as every earlier version derived: keys must not change under a retrying integrator.
    expect(idempotencyKey('a', 1)).toBe('tt1-135f17a475a61afdeeaf3759ad2e45ad1c7abb192395abe47e41fc8e395dc1a9');
    expect(idempotencyKey('a:b')).not.toBe(idempotencyKey('a', 'b'));
    expect(idempotencyKey('ünïcödé '.repeat(100))).toMatch(/^tt1-[0-9a-f]{64}$/);
    expect(() => idempotencyKey()).toThrow(TypeError);
  });

  it('a non-2xx answer throws an ApiError typed by its code', async () => {
    const missing = await tt.get('/api/v1/tasks/{task_key}/', task('SDK-999')).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect((missing as ApiError).requestId).toBe((missing as ApiError).response.headers.get('x-request-id'));

    const invalid = await tt
      .post('/api/v1/projects/{project_key}/tasks/', { params: inSdk, body: { title: ' ' } })
      .catch((error: unknown) => error);
    if (!isApiError(invalid, 'VALIDATION_ERROR')) throw new Error(`expected VALIDATION_ERROR, got ${String(invalid)}`);
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.details.fields ?? {})).toEqual(['title']);

    const unauthenticated = await createClient({ baseUrl: h.baseUrl, token: 'tt_wrong' })
      .get('/api/v1/me/')
      .catch((error: unknown) => error);
    expect(isApiError(unauthenticated, 'UNAUTHENTICATED')).toBe(true);
    expect(isApiError(unauthenticated, 'NOT_FOUND', 'FORBIDDEN')).toBe(false);
  });

  it('the client knows every error code the service can answer, with its status', () => {
    const { ERROR_STATUS } = createRequire(import.meta.url)(
      '@tasktracker/client',
    ) as typeof import('@tasktracker/client');
    expect(ERROR_STATUS).toEqual(
      Object.fromEntries(Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status])),
    );
  });

  it('If-Match: a stale ETag is refused with 412 and the current one; updateWithETag re-reads and wins', async () => {
    const { data, etag } = await tt.post('/api/v1/projects/{project_key}/tasks/', {
      params: inSdk,
      body: { title: 'Counter 0' },
    });
    const key = data.key;
    await tt.put('/api/v1/tasks/{task_key}/', { ...task(key), body: { description: 'edited elsewhere' } });
    const stale = await tt
      .put('/api/v1/tasks/{task_key}/', { ...task(key), body: { title: 'lost update' }, ifMatch: etag })
      .catch((error: unknown) => error);
    if (!isApiError(stale, 'PRECONDITION_FAILED')) throw new Error(`expected 412, got ${String(stale)}`);
    expect(stale.details.etag).toBe('"v2"');
    expect(ifMatch('"v2"')).toEqual({ 'If-Match': '"v2"' });

    // A concurrent writer changes the task between the first read and its write.
    let writes = 0;
    const result = await updateWithETag(
      () => tt.get('/api/v1/tasks/{task_key}/', task(key)),
      async (current, tag) => {
        if (++writes === 1) await tt.put('/api/v1/tasks/{task_key}/', { ...task(key), body: { title: 'Counter 1' } });
        const next = Number(current.title.split(' ')[1]) + 1;
        return tt.put('/api/v1/tasks/{task_key}/', { ...task(key), body: { title: `Counter ${next}` }, ifMatch: tag });
      },
    );
    expect(writes).toBe(2);
    expect(result.data.title).toBe('Counter 2');
    expect(result.etag).toBe('"v4"');
  });

  it('paginate walks offset pages and walk follows cursors, each item once and in order', async () => {
    await h.project(actor, 'PAGE');
    const titles = Array.from({ length: 7 }, (_, i) => `Item ${i + 1}`);
    await tt.post('/api/v1/projects/{project_key}/tasks/bulk/', {
      params: { path: { project_key: 'PAGE' } },
      body: { tasks: titles.map((title) => ({ title })) },
    });
    const inPage = { path: { project_key: 'PAGE' } };

    let before = sent.requests.length;
    const offsetItems: string[] = [];
    for await (const item of tt.paginate('/api/v1/projects/{project_key}/tasks/', {
      params: { ...inPage, query: { limit: 3 } },
    }))
      offsetItems.push(item.title);
    expect(offsetItems).toEqual(titles);
    expect(sent.requests.slice(before).map((r) => new URL(r.url).search)).toEqual([
      '?limit=3&offset=0',
      '?limit=3&offset=3',
      '?limit=3&offset=6',
    ]);

    before = sent.requests.length;
    const cursorItems: string[] = [];
    for await (const item of tt.walk('/api/v1/projects/{project_key}/tasks/', {
      params: { ...inPage, query: { limit: 3, ordering: '-key' } },
    }))
      cursorItems.push(item.title);
    expect(cursorItems).toEqual(titles);
    expect(sent.requests.length - before).toBe(3);

    // Filters pass through; an empty list is one request and no items.
    const none: unknown[] = [];
    for await (const item of tt.walk('/api/v1/projects/{project_key}/tasks/', {
      params: { ...inPage, query: { status: 'Done' } },
    }))
      none.push(item);
    expect(none).toEqual([]);
  });
});

describe('@tasktracker/client: 429 and Retry-After against the real rate limiter', () => {
  let h: TestHarness & { baseUrl: string };
  let actor: Actor;

  beforeAll(async () => {
    h = await listeningHarness({
      rateLimit: { tokenBurst: 2, tokenBurstWindowSeconds: 1, orgHourly: 1_000_000, searchPerMinute: 60 },
    });
    actor = await h.actor();
    await h.project(actor, 'RL');
  });
  afterAll(() => h.close());

  const exhaust = async () => {
    const bare = createClient({ baseUrl: h.baseUrl, token: actor.token, retry: { maxRetries: 0 } });
    for (;;) {
      const limited = await bare.get('/api/v1/me/').then(
        () => false,
        (error: unknown) => isApiError(error, 'RATE_LIMITED'),
      );
      if (limited) return;
    }
  };

  it('waits Retry-After and sends the same request again (a 429 never claims the Idempotency-Key)', async () => {
    const waits: number[] = [];
    const tt = createClient({
      baseUrl: h.baseUrl,
      token: actor.token,
      timing: { sleep: (ms) => (waits.push(ms), new Promise((resolve) => setTimeout(resolve, ms))) },
    });
    await exhaust();
    const created = await tt.post('/api/v1/projects/{project_key}/tasks/', {
      params: { path: { project_key: 'RL' } },
      body: { title: 'after the wait' },
      upstreamId: 'row-1',
    });
    expect(created.response.status).toBe(201);
    expect(created.data.title).toBe('after the wait');
    expect(waits).toEqual([1000]);
  });

  it('gives up after maxRetries, or at once when Retry-After exceeds maxDelayMs, with retryAfterSeconds on the error', async () => {
    const waits: number[] = [];
    // The injected sleep returns at once, so every retry meets the same exhausted window.
    const impatient = createClient({
      baseUrl: h.baseUrl,
      token: actor.token,
      retry: { maxRetries: 2 },
      timing: { sleep: async (ms) => void waits.push(ms) },
    });
    await exhaust();
    const error = await impatient.get('/api/v1/me/').catch((e: unknown) => e);
    if (!isApiError(error, 'RATE_LIMITED')) throw new Error(`expected 429, got ${String(error)}`);
    expect(error.retryAfterSeconds).toBe(1);
    expect(waits).toEqual([1000, 1000]);

    const capped = createClient({
      baseUrl: h.baseUrl,
      token: actor.token,
      retry: { maxDelayMs: 500 },
      timing: { sleep: async (ms) => void waits.push(ms) },
    });
    await expect(capped.get('/api/v1/me/')).rejects.toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(waits).toHaveLength(2);
  });

  it('reads Retry-After as seconds or as an HTTP date against the injected clock', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Sat, 21 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
