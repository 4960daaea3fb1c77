import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@tasktracker/client';
import { syncTasks, type SyncState } from '../../examples/sync-tasks.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { listeningHarness } from '../helpers/listening.ts';

describe('changes feed', () => {
  let h: TestHarness;
  let actor: Actor;

  const create = async (project: string, title: string) =>
    (await h.request('POST', `/api/v1/projects/${project}/tasks/`, { token: actor.token, body: { title } })).body.data;
  const feed = (query = '', token = actor.token) => h.request('GET', `/api/v1/changes/tasks/${query}`, { token });

  beforeAll(async () => {
    h = await createHarness();
    actor = await h.actor();
    await h.project(actor, 'FEED');
    await h.project(actor, 'SIDE');
  });
  afterAll(() => h.close());

  it('the page is {success, data: {changes}, pagination: {limit, next_cursor, has_more}}; deletions carry no task', async () => {
    const t = await create('FEED', 'First');
    await h.request('PUT', `/api/v1/tasks/${t.key}/`, { token: actor.token, body: { title: 'First, renamed' } });
    await h.request('DELETE', `/api/v1/tasks/${t.key}/`, { token: actor.token });
    const res = await feed();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'pagination', 'success']);
    expect(res.body.pagination).toEqual({ limit: 50, next_cursor: expect.any(String), has_more: false });
    const changes = res.body.data.changes;
    expect(changes.map((c: { action: string }) => c.action)).toEqual(['created', 'updated', 'deleted']);
    expect(changes[0]).toMatchObject({ key: t.key, task: { key: t.key, title: 'First' } });
    expect(changes[1].task.title).toBe('First, renamed');
    expect(changes[2]).not.toHaveProperty('task');
    for (const c of changes) expect(c.changed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(res.headers['ratelimit-limit']).toBeDefined();
  });

  it('cursor pagination by primary key returns every change once', async () => {
    for (let i = 0; i < 7; i++) await create('FEED', `Walk ${i}`);
    const ids: number[] = [];
    let cursor = '';
    for (;;) {
      const res = await feed(`?cursor=${cursor}&limit=3`);
      ids.push(...res.body.data.changes.map((c: { id: number }) => c.id));
      cursor = res.body.pagination.next_cursor;
      if (!res.body.pagination.has_more) break;
    }
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe((await feed('?limit=200')).body.data.changes.length);
  });

  it('since filters by changed_at; Z and %2B00:00 both parse', async () => {
    h.clock.advance(3600_000);
    const mark = new Date(h.clock.nowMs()).toISOString();
    const later = await create('FEED', 'After the mark');
    for (const since of [mark, mark.replace('Z', '%2B00:00')]) {
      const res = await feed(`?since=${since}`);
      expect(res.body.data.changes.map((c: { key: string }) => c.key)).toEqual([later.key]);
      expect(res.headers['x-since-ignored']).toBeUndefined();
      expect(res.body.data.since).toBe(mark.replace('Z', '000Z'));
    }
  });

  it('an unescaped + decodes to a space, the filter is skipped and everything is returned (and flagged)', async () => {
    const mark = new Date(h.clock.nowMs()).toISOString().replace('Z', '+00:00');
    const all = await feed('?limit=200');
    const res = await feed(`?since=${mark}&limit=200`);
    expect(res.status).toBe(200);
    expect(res.body.data.changes).toEqual(all.body.data.changes);
    expect(res.headers['x-since-ignored']).toBe('true');
    expect(res.body.data.since).toBeNull();
  });

  it('a token sees changes only of projects it can see now', async () => {
    const side = await create('SIDE', 'Side task');
    const restricted = await h.tokenFor(actor.accountId, ['tasks:read'], ['SIDE']);
    const res = await feed('?limit=200', restricted.token);
    expect(res.body.data.changes.map((c: { key: string }) => c.key)).toEqual([side.key]);
    const stranger = await h.actor();
    expect((await feed('', stranger.token)).body.data.changes).toEqual([]);
  });

  it('a tampered cursor is a 400; limit bounds apply', async () => {
    expect((await feed('?cursor=nope!')).status).toBe(400);
    expect((await feed('?limit=201')).status).toBe(400);
  });
});

/**
 * Property: after any sequence of creates, updates and deletes across visible and invisible
 * projects, with writes landing while a walk is under way, the reference sync client's copy
 * equals the tasks the token can see on the server.
 */
describe('changes feed: a replaying client reconstructs the visible tasks (property)', () => {
  type Op =
    | { kind: 'create'; project: number }
    | { kind: 'update'; pick: number; title: string }
    | { kind: 'delete'; pick: number }
    | { kind: 'move'; pick: number };
  const op = fc.oneof(
    fc.record({ kind: fc.constant('create' as const), project: fc.integer({ min: 0, max: 2 }) }),
    fc.record({
      kind: fc.constant('update' as const),
      pick: fc.nat(),
      title: fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim().length > 0),
    }),
    fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('move' as const), pick: fc.nat() }),
  );

  let h: TestHarness & { baseUrl: string };
  let owner: Actor;
  let reader: string;
  const projects = ['PA', 'PB', 'PC'];

  beforeAll(async () => {
    h = await listeningHarness();
    owner = await h.actor();
    for (const key of projects) await h.project(owner, key);
    // The reader sees PA and PB only.
    reader = (await h.tokenFor(owner.accountId, ['tasks:read'], ['PA', 'PB'])).token;
  });
  afterAll(() => h.close());

  let live: string[] = [];
  async function apply(o: Op): Promise<void> {
    if (o.kind === 'create') {
      const res = await h.request('POST', `/api/v1/projects/${projects[o.project]}/tasks/`, {
        token: owner.token,
        body: { title: 'generated' },
      });
      live.push(res.body.data.key);
      return;
    }
    if (live.length === 0) return;
    const key = live[o.pick % live.length]!;
    if (o.kind === 'update')
      await h.request('PUT', `/api/v1/tasks/${key}/`, { token: owner.token, body: { title: o.title } });
    if (o.kind === 'move')
      await h.request('PUT', `/api/v1/tasks/${key}/`, { token: owner.token, body: { status: 'In Progress' } });
    if (o.kind === 'delete') {
      await h.request('DELETE', `/api/v1/tasks/${key}/`, { token: owner.token });
      live = live.filter((k) => k !== key);
    }
  }

  async function serverView(): Promise<Record<string, unknown>> {
    const view: Record<string, unknown> = {};
    for (const key of ['PA', 'PB']) {
      let cursor = '';
      for (;;) {
        const res = await h.request('GET', `/api/v1/projects/${key}/tasks/?cursor=${cursor}&limit=200`, {
          token: reader,
        });
        for (const task of res.body.data) view[task.key] = task;
        cursor = res.body.pagination.next_cursor;
        if (!res.body.pagination.has_more) break;
      }
    }
    return view;
  }

  it('holds for random histories, including writes during the walk', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 25 }), fc.array(op, { maxLength: 8 }), async (before, during) => {
        for (const o of before) await apply(o);
        let state: SyncState = { highWater: null, tasks: {} };
        // First run, over real HTTP: writes land between pages of the walk.
        const pending = [...during];
        const interleaving = createClient({
          baseUrl: h.baseUrl,
          token: reader,
          fetch: async (request) => {
            const res = await fetch(request);
            const next = pending.shift();
            if (next) await apply(next);
            return res;
          },
        });
        state = await syncTasks(interleaving, state, 2);
        // Later run from the stored high-water mark picks up whatever landed during the first.
        h.clock.advance(1000);
        state = await syncTasks(createClient({ baseUrl: h.baseUrl, token: reader }), state);
        expect(state.tasks).toEqual(await serverView());
      }),
      { numRuns: 12, seed: 20261121 },
    );
  });
});
