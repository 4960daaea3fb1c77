import { createClient, syncTaskChanges, type HighWaterStore, type Task, type TaskTrackerClient } from '@tasktracker/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncTasks } from '../../examples/sync-tasks.ts';
import type { Actor } from '../helpers/harness.ts';
import { listeningHarness } from '../helpers/listening.ts';

type Harness = Awaited<ReturnType<typeof listeningHarness>>;

/** A high-water store that records every save. */
function memoryStore(initial: string | null = null): HighWaterStore & { saves: string[]; mark: string | null } {
  const store = {
    mark: initial,
    saves: [] as string[],
    load: () => store.mark,
    save: (mark: string) => {
      store.saves.push(mark);
      store.mark = mark;
    },
  };
  return store;
}

describe('syncTaskChanges keeps the high-water mark as the changes feed requires', () => {
  let h: Harness;
  let actor: Actor;
  let tt: TaskTrackerClient;
  const feedRequests: { url: URL; sinceIgnored: string | null }[] = [];

  beforeAll(async () => {
    h = await listeningHarness();
    actor = await h.actor();
    await h.project(actor, 'HW');
    tt = createClient({
      baseUrl: h.baseUrl,
      token: actor.token,
      fetch: async (request) => {
        const response = await fetch(request);
        feedRequests.push({ url: new URL(request.url), sinceIgnored: response.headers.get('x-since-ignored') });
        return response;
      },
    });
  });
  afterAll(() => h.close());

  const create = async (title: string) => (await tt.post('/api/v1/projects/{project_key}/tasks/', { params: { path: { project_key: 'HW' } }, body: { title } })).data;

  it('the mark is the largest changed_at of the walk (the feed is in id order), saved once the walk is done; deletes remove', async () => {
    // A change committed later in id order can carry an earlier changed_at.
    h.clock.set('2026-11-21T10:00:10Z');
    const late = await create('stamped 10:00:10');
    h.clock.set('2026-11-21T10:00:00Z');
    const early = await create('stamped 10:00:00, later id');
    await tt.delete('/api/v1/tasks/{task_key}/', { params: { path: { task_key: early.key } } });

    const store = memoryStore();
    const copy = new Map<string, Task>();
    const result = await syncTaskChanges(tt, { store, pageSize: 1, upsert: (task) => void copy.set(task.key, task), remove: (key) => void copy.delete(key) });
    // (The test clock moves a microsecond per reading.)
    expect(result).toEqual({ changes: 3, pages: 3, previous: null, highWater: expect.stringMatching(/^2026-11-21T10:00:10\.00000\dZ$/) });
    expect(store.saves).toEqual([result.highWater]);
    expect([...copy.keys()]).toEqual([late.key]);
  });

  it('a walk that fails half-way stores nothing; the next run starts from the old mark, a little before it', async () => {
    const store = memoryStore('2026-11-21T10:00:10.000000Z');
    // Earlier than the mark by more than the overlap: never seen again.
    h.clock.set('2026-11-21T10:00:04Z');
    await create('before the overlap');
    h.clock.set('2026-11-21T10:05:00Z');
    await create('a');
    await create('b');
    await create('c');

    let calls = 0;
    const flaky = createClient({
      baseUrl: h.baseUrl,
      token: actor.token,
      fetch: (request) => (++calls === 2 ? Promise.reject(new TypeError('connection reset')) : fetch(request)),
    });
    const applied: string[] = [];
    const handlers = { upsert: (task: Task) => void applied.push(task.key), remove: () => undefined };
    await expect(syncTaskChanges(flaky, { store, pageSize: 2, ...handlers })).rejects.toThrow('connection reset');
    expect(store.saves).toEqual([]);
    expect(applied).toHaveLength(2);

    feedRequests.length = 0;
    const rerun = await syncTaskChanges(tt, { store, pageSize: 2, ...handlers });
    // The three new changes, and the one from the first test inside the overlap, applied again.
    expect(rerun).toEqual({ changes: 4, pages: 2, previous: '2026-11-21T10:00:10.000000Z', highWater: expect.stringMatching(/^2026-11-21T10:05:00\.00000\dZ$/) });
    expect(store.saves).toEqual([rerun.highWater]);
    // Five seconds of overlap before the mark, sent with Z (never a bare +), and honoured.
    expect(feedRequests[0]!.url.searchParams.get('since')).toBe('2026-11-21T10:00:05.000Z');
    expect(feedRequests.map((r) => r.sinceIgnored)).toEqual([null, null]);
  });

  it('a walk that finds nothing keeps the mark and saves nothing', async () => {
    const store = memoryStore('2026-11-21T11:00:00.000000Z');
    const result = await syncTaskChanges(tt, { store, upsert: () => undefined, remove: () => undefined });
    expect(result).toEqual({ changes: 0, pages: 1, previous: '2026-11-21T11:00:00.000000Z', highWater: '2026-11-21T11:00:00.000000Z' });
    expect(store.saves).toEqual([]);
  });
});

describe('examples/sync-tasks.ts walks a feed of 10,000 changes', () => {
  let h: Harness;
  let actor: Actor;
  let tt: TaskTrackerClient;

  beforeAll(async () => {
    h = await listeningHarness();
    actor = await h.actor();
    await h.project(actor, 'BIG');
    tt = createClient({ baseUrl: h.baseUrl, token: actor.token });
  });
  afterAll(() => h.close());

  it('and its copy equals the server: 9,000 creates, 800 updates, 200 deletes', { timeout: 240_000 }, async () => {
    const inBig = { params: { path: { project_key: 'BIG' } } };
    // Seeded through the bulk endpoints: 100 tasks a call, one transaction each.
    for (let call = 0; call < 90; call++) {
      const tasks = Array.from({ length: 100 }, (_, i) => ({ title: `Task ${call * 100 + i + 1}` }));
      await tt.post('/api/v1/projects/{project_key}/tasks/bulk/', { ...inBig, body: { tasks } });
    }
    for (let call = 0; call < 8; call++) {
      const tasks = Array.from({ length: 100 }, (_, i) => ({ key: `BIG-${call * 100 + i + 1}`, title: `Task ${call * 100 + i + 1}, renamed` }));
      await tt.post('/api/v1/projects/{project_key}/tasks/bulk-update/', { ...inBig, body: { tasks } });
    }
    for (let n = 8801; n <= 9000; n++) await tt.delete('/api/v1/tasks/{task_key}/', { params: { path: { task_key: `BIG-${n}` } } });

    const started = performance.now();
    const synced = await syncTasks(tt, { highWater: null, tasks: {} });
    const seconds = (performance.now() - started) / 1000;
    expect(synced.result).toMatchObject({ changes: 10_000, pages: 50 });
    expect(Object.keys(synced.tasks)).toHaveLength(8_800);

    const server: Record<string, Task> = {};
    for await (const task of tt.walk('/api/v1/projects/{project_key}/tasks/', inBig)) server[task.key] = task;
    expect(synced.tasks).toEqual(server);
    expect(synced.tasks['BIG-1']!.title).toBe('Task 1, renamed');
    console.log(`examples/sync-tasks.ts: 10,000 changes in ${seconds.toFixed(1)} s`);

    // Nothing new: the next run re-reads only the overlap before the mark.
    const again = await syncTasks(tt, synced);
    expect(again.tasks).toEqual(server);
    expect(again.highWater).toBe(synced.highWater);
  });
});
