import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/http/errors.ts';
import { purgeExpiredIdempotencyKeys } from '../../src/http/idempotency.ts';
import { commitWrite } from '../../src/http/unit-of-work.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { forgeInFlightClaim, idempotencyRecords, storedResponse } from '../helpers/storage.ts';

describe('Idempotency-Key: claim, replay, conflicts and expiry', () => {
  let h: TestHarness;
  let actor: Actor;
  let failures = 0;
  let storeAttempts = 0;

  beforeAll(async () => {
    h = await createHarness({
      // A route that fails with a 5xx the first time, to show 5xx answers are not remembered.
      beforeReady: (app, ctx) => {
        app.post('/api/v1/test-flaky/', { config: { scope: 'projects:write' } }, async (_request, reply) => {
          failures++;
          if (failures === 1) throw new Error('boom');
          if (failures === 2) throw new ApiError('SERVICE_UNAVAILABLE', 'down');
          return reply.code(201).send({ success: true, data: { attempt: failures } });
        });
        // Stores its response in its work's transaction, which then fails the first time (as a
        // failed commit would): the statement storing the response errors after it ran.
        let storing: unknown;
        const failingOnce = {
          ...ctx,
          db: ctx.db.withPlugin({
            transformQuery: (args) => {
              if (args.node.kind === 'UpdateQueryNode' && JSON.stringify(args.node).includes('"idempotency_keys"'))
                storing = args.queryId;
              return args.node;
            },
            transformResult: async (args) => {
              if (args.queryId === storing && storeAttempts === 1) throw new Error('commit failed');
              return args.result;
            },
          }),
        };
        app.post('/api/v1/test-store-then-fail/', { config: { scope: 'projects:write' } }, async (request, reply) => {
          reply.code(201);
          return commitWrite(
            failingOnce,
            request,
            reply,
            async () => ++storeAttempts,
            (attempt: number) => ({ success: true, data: { attempt } }),
          );
        });
      },
    });
    actor = await h.actor();
  });
  afterAll(() => h.close());

  const create = (key: string | undefined, body: object, token = actor.token) =>
    h.request('POST', '/api/v1/projects/', {
      token,
      body,
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });
  const projectCount = async () =>
    (await h.request('GET', '/api/v1/projects/', { token: actor.token })).body.pagination.count;

  it('a repeat with the same key and body replays the stored response without repeating the work', async () => {
    const first = await create('k-replay', { name: 'One', key: 'ONE' });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const before = await projectCount();
    const again = await create('k-replay', { key: 'ONE', name: 'One' });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await projectCount()).toBe(before);
  });

  it('the same key with a different body is 409 CONFLICT', async () => {
    await create('k-diff', { name: 'Two', key: 'TWO' });
    const res = await create('k-diff', { name: 'Two', key: 'TWOB' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
  });

  it('the same key on a different path is 409 CONFLICT', async () => {
    const p = await create('k-path', { name: 'Path', key: 'PATH' });
    const res = await h.request('POST', '/api/v1/memberships/', {
      token: actor.token,
      body: { project: p.body.data.id, user: actor.accountId },
      headers: { 'idempotency-key': 'k-path' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
  });

  it('20 concurrent POSTs with one key create exactly one project; the others get 409 or the replay', async () => {
    const before = await projectCount();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => create('k-race', { name: 'Race', key: 'RACE' })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(results.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(await projectCount()).toBe(before + 1);
    for (const conflict of results.filter((r) => r.status === 409)) expect(conflict.body.error.code).toBe('CONFLICT');
  });

  it('4xx responses are not stored: a retry is decided again', async () => {
    const first = await create('k-4xx', { name: 'bad', key: 'lower' });
    expect(first.status).toBe(400);
    expect(await idempotencyRecords(h, 'k-4xx')).toEqual([]);
    const again = await create('k-4xx', { name: 'bad', key: 'lower' });
    expect(again.status).toBe(400);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.text).toBe(first.text);
  });

  it("a handler's 403 is not replayed: once the caller may, the retry does the work", async () => {
    const guest = await h.actor({ role: 'guest' });
    const send = () => create('k-403', { name: 'Later', key: 'LATER' }, guest.token);
    const refused = await send();
    expect(refused.status).toBe(403);
    expect(await idempotencyRecords(h, 'k-403')).toEqual([]);
    await h.ctx.db.updateTable('users').set({ role: 'member' }).where('id', '=', guest.accountId).execute();
    const allowed = await send();
    expect(allowed.status).toBe(201);
    expect(allowed.headers['idempotent-replayed']).toBeUndefined();
    const replayed = await send();
    expect(replayed.status).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
  });

  it('5xx responses are not stored; a retry runs again', async () => {
    const send = () =>
      h.request('POST', '/api/v1/test-flaky/', { token: actor.token, headers: { 'idempotency-key': 'k-5xx' } });
    const crash = await send();
    expect(crash.status).toBe(500);
    expect(crash.body.error.code).toBe('INTERNAL_ERROR');
    expect(crash.text).not.toContain('boom');
    expect((await send()).status).toBe(503);
    const ok = await send();
    expect(ok.status).toBe(201);
    expect(ok.body.data.attempt).toBe(3);
    const replay = await send();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.data.attempt).toBe(3);
  });

  it('a response stored in a transaction that then fails is not stored; a retry runs again', async () => {
    const send = () =>
      h.request('POST', '/api/v1/test-store-then-fail/', {
        token: actor.token,
        headers: { 'idempotency-key': 'k-store-fail' },
      });
    expect((await send()).status).toBe(500);
    const ok = await send();
    expect(ok.status).toBe(201);
    expect(ok.body.data.attempt).toBe(2);
    const replay = await send();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(ok.text);
  });

  describe('task creation, whose response is stored by the transaction that creates the task', () => {
    const storedRecord = (key: string) => storedResponse(h, key, { tokenId: actor.tokenId });
    const taskCount = async (project: string) =>
      (await h.request('GET', `/api/v1/projects/${project}/tasks/`, { token: actor.token })).body.pagination.count;

    it('create task stores exactly the response sent, and a repeat replays it without a second task', async () => {
      await h.project(actor, 'IDT');
      const send = () =>
        h.request('POST', '/api/v1/projects/IDT/tasks/', {
          token: actor.token,
          body: { title: 'Once' },
          headers: { 'idempotency-key': 'k-task' },
        });
      const first = await send();
      expect(first.status).toBe(201);
      expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(first.headers.etag).toBe('"v1"');
      expect(first.body.data).toMatchObject({ key: 'IDT-1', title: 'Once' });
      expect(await storedRecord('k-task')).toEqual({
        state: 'complete',
        response_status: 201,
        response_body: first.text,
      });
      const again = await send();
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.text).toBe(first.text);
      expect(await taskCount('IDT')).toBe(1);
    });

    it('subtask, bulk create and bulk update store the response sent and replay it', async () => {
      await h.project(actor, 'IDB');
      const post = (path: string, key: string, body: object) =>
        h.request('POST', `/api/v1${path}`, { token: actor.token, body, headers: { 'idempotency-key': key } });
      const calls: Array<[path: string, key: string, body: object, status: number]> = [
        ['/projects/IDB/tasks/bulk/', 'k-bulk', { tasks: [{ title: 'A' }, { title: 'B' }] }, 201],
        ['/tasks/IDB-1/subtasks/', 'k-sub', { title: 'Child' }, 201],
        ['/projects/IDB/tasks/bulk-update/', 'k-bulk-update', { tasks: [{ key: 'IDB-2', title: 'B2' }] }, 200],
      ];
      for (const [path, key, body, status] of calls) {
        const first = await post(path, key, body);
        expect(first.status, path).toBe(status);
        expect(await storedRecord(key)).toEqual({
          state: 'complete',
          response_status: status,
          response_body: first.text,
        });
        const again = await post(path, key, body);
        expect(again.headers['idempotent-replayed'], path).toBe('true');
        expect(again.text, path).toBe(first.text);
      }
      expect(await taskCount('IDB')).toBe(3);
      expect((await h.request('GET', '/api/v1/tasks/IDB-2/', { token: actor.token })).body.data.title).toBe('B2');
    });

    it('a refused create (4xx) is not stored, and creates nothing', async () => {
      await h.project(actor, 'IDR');
      const send = () =>
        h.request('POST', '/api/v1/projects/IDR/tasks/', {
          token: actor.token,
          body: { title: 'Bad', priority: 'Nope' },
          headers: { 'idempotency-key': 'k-task-4xx' },
        });
      const first = await send();
      expect(first.status).toBe(400);
      expect(await idempotencyRecords(h, 'k-task-4xx')).toEqual([]);
      const again = await send();
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(again.text).toBe(first.text);
      expect(await taskCount('IDR')).toBe(0);
    });
  });

  it('keys are scoped to the token', async () => {
    const other = await h.tokenFor(actor.accountId);
    expect((await create('k-scope', { name: 'S1', key: 'SCOPEA' })).status).toBe(201);
    const res = await create('k-scope', { name: 'S1', key: 'SCOPEB' }, other.token);
    expect(res.status).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('after 24 hours the key is forgotten and a request with it is new', async () => {
    expect((await create('k-ttl', { name: 'T', key: 'TTLA' })).status).toBe(201);
    h.clock.advance(23 * 3600_000);
    expect((await create('k-ttl', { name: 'T', key: 'TTLB' })).status).toBe(409);
    h.clock.advance(3600_000 + 1000);
    const res = await create('k-ttl', { name: 'T', key: 'TTLB' });
    expect(res.status).toBe(201);
    expect(res.body.data.key).toBe('TTLB');
  });

  it('the purge job deletes keys older than 24 hours', async () => {
    await create('k-purge', { name: 'P', key: 'PURGE' });
    h.clock.advance(24 * 3600_000 + 1000);
    expect(await purgeExpiredIdempotencyKeys(h.ctx)).toBeGreaterThanOrEqual(1);
    const left = await idempotencyRecords(h, 'k-purge');
    expect(left).toEqual([]);
  });

  it('a claim left in flight by a crashed process is taken over after the lease', async () => {
    const now = h.clock.nowIso();
    await forgeInFlightClaim(h, {
      tokenId: actor.tokenId,
      key: 'k-crash',
      requestHash: 'x',
      leaseExpiresAt: now,
      createdAt: now,
    });
    h.clock.advance(1000);
    const res = await create('k-crash', { name: 'C', key: 'CRASH' });
    expect(res.status).toBe(201);
  });

  it('a claim still within its lease answers 409', async () => {
    const now = h.clock.nowIso();
    const later = new Date(h.clock.nowMs() + 60_000).toISOString();
    await forgeInFlightClaim(h, {
      tokenId: actor.tokenId,
      key: 'k-busy',
      requestHash: 'x',
      leaseExpiresAt: later,
      createdAt: now,
    });
    const res = await create('k-busy', { name: 'B', key: 'BUSY' });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/in progress|different/);
  });

  it('the header is ignored on PUT, PATCH, DELETE and GET', async () => {
    const p = (await create(undefined, { name: 'Ign', key: 'IGN' })).body.data;
    for (const name of ['a', 'b']) {
      const res = await h.request('PATCH', `/api/v1/projects/${p.id}/`, {
        token: actor.token,
        body: { name },
        headers: { 'idempotency-key': 'k-patch' },
      });
      expect(res.body.data.name).toBe(name);
    }
    const get = await h.request('GET', '/api/v1/projects/', {
      token: actor.token,
      headers: { 'idempotency-key': 'k-patch' },
    });
    expect(get.headers['idempotent-replayed']).toBeUndefined();
  });

  it('keys must be 1-255 printable ASCII characters', async () => {
    for (const key of ['x'.repeat(256), 'tab\there', 'é']) {
      const res = await h.request('POST', '/api/v1/projects/', {
        token: actor.token,
        body: { name: 'K', key: 'KEYS' },
        headers: { 'idempotency-key': key },
      });
      expect(res.status, key).toBe(400);
      expect(res.body.error.details.fields).toHaveProperty('Idempotency-Key');
    }
  });

  it('401 and 403 answers are never stored', async () => {
    const readOnly = await h.tokenFor(actor.accountId, ['projects:read']);
    const denied = await create('k-auth', { name: 'A', key: 'AUTHK' }, readOnly.token);
    expect(denied.status).toBe(403);
    const rows = await idempotencyRecords(h, 'k-auth');
    expect(rows).toEqual([]);
  });
});
