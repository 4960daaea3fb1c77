import {
  createClient,
  isApiError,
  syncTaskChanges,
  type HighWaterStore,
  type Task,
  type TaskTrackerClient,
} from '@tasktracker/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncTasks } from '../../examples/sync-tasks.ts';
import { isoFromMicros } from '../../src/clock.ts';
import { purgeOldChanges } from '../../src/worker/retention.ts';
import { projectId as projectIdOf } from '../helpers/factory.ts';
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

  const create = async (title: string) =>
    (
      await tt.post('/api/v1/projects/{project_key}/tasks/', {
        params: { path: { project_key: 'HW' } },
        body: { title },
      })
    ).data;

  it('the mark is the largest changed_at of the walk (the feed is in id order), saved once the walk is done; deletes remove', async () => {
    // A change committed later in id order can carry an earlier changed_at.
    h.clock.set('2026-11-21T10:00:10Z');
    const late = await create('stamped 10:00:10');
    h.clock.set('2026-11-21T10:00:00Z');
    const early = await create('stamped 10:00:00, later id');
    await tt.delete('/api/v1/tasks/{task_key}/', { params: { path: { task_key: early.key } } });

    const store = memoryStore();
    const copy = new Map<string, Task>();
    const result = await syncTaskChanges(tt, {
      store,
      pageSize: 1,
      upsert: (task) => void copy.set(task.key, task),
      remove: (key) => void copy.delete(key),
    });
    // (The test clock moves a microsecond per reading.)
    expect(result).toEqual({
      changes: 3,
      pages: 3,
      previous: null,
      highWater: expect.stringMatching(/^2026-11-21T10:00:10\.00000\dZ$/),
      resynced: false,
    });
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
    // Retrying off: the second page fails for good (a GET would otherwise be retried).
    const flaky = createClient({
      baseUrl: h.baseUrl,
      token: actor.token,
      retry: { maxRetries: 0 },
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
    expect(rerun).toEqual({
      changes: 4,
      pages: 2,
      previous: '2026-11-21T10:00:10.000000Z',
      highWater: expect.stringMatching(/^2026-11-21T10:05:00\.00000\dZ$/),
      resynced: false,
    });
    expect(store.saves).toEqual([rerun.highWater]);
    // Five seconds of overlap before the mark, sent with Z (never a bare +), and honoured.
    expect(feedRequests[0]!.url.searchParams.get('since')).toBe('2026-11-21T10:00:05.000Z');
    expect(feedRequests.map((r) => r.sinceIgnored)).toEqual([null, null]);
  });

  it('a walk that finds nothing keeps the mark and saves nothing', async () => {
    const store = memoryStore('2026-11-21T11:00:00.000000Z');
    const result = await syncTaskChanges(tt, { store, upsert: () => undefined, remove: () => undefined });
    expect(result).toEqual({
      changes: 0,
      pages: 1,
      previous: '2026-11-21T11:00:00.000000Z',
      highWater: '2026-11-21T11:00:00.000000Z',
      resynced: false,
    });
    expect(store.saves).toEqual([]);
  });
});

describe('syncTaskChanges rebuilds a copy the feed can no longer bring up to date', () => {
  let h: Harness;
  let tt: TaskTrackerClient;

  beforeAll(async () => {
    h = await listeningHarness();
    const actor = await h.actor();
    await h.project(actor, 'RS');
    tt = createClient({ baseUrl: h.baseUrl, token: actor.token });
  });
  afterAll(() => h.close());

  const inRs = { params: { path: { project_key: 'RS' } } };

  it('on 410 RESYNC_REQUIRED it calls reset and walks from the start; without reset it throws', async () => {
    const kept = (await tt.post('/api/v1/projects/{project_key}/tasks/', { ...inRs, body: { title: 'kept' } })).data;
    const doomed = (await tt.post('/api/v1/projects/{project_key}/tasks/', { ...inRs, body: { title: 'doomed' } }))
      .data;
    const store = memoryStore();
    const copy = new Map<string, Task>();
    const handlers = {
      upsert: (task: Task) => void copy.set(task.key, task),
      remove: (key: string) => void copy.delete(key),
    };
    await syncTaskChanges(tt, { store, ...handlers });
    expect([...copy.keys()].sort()).toEqual([kept.key, doomed.key].sort());

    // The copy goes stale for longer than the retention; the deletion it missed is purged.
    await tt.delete('/api/v1/tasks/{task_key}/', { params: { path: { task_key: doomed.key } } });
    h.clock.advance((h.ctx.config.retention.changesDays + 1) * 86_400_000);
    while (await purgeOldChanges(h.ctx));

    const stale = store.mark;
    const refusal = await syncTaskChanges(tt, { store, ...handlers }).catch((error: unknown) => error);
    expect(isApiError(refusal, 'RESYNC_REQUIRED')).toBe(true);
    expect(store.mark).toBe(stale);

    let resets = 0;
    const result = await syncTaskChanges(tt, {
      store,
      ...handlers,
      reset: () => {
        resets += 1;
        copy.clear();
      },
    });
    expect(resets).toBe(1);
    expect(result).toMatchObject({ changes: 1, pages: 1, previous: stale, resynced: true });
    expect([...copy.keys()]).toEqual([kept.key]);
    expect(store.mark).toBe(result.highWater);
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

  /**
   * 420 changes are made through the API (bulk create, bulk update, deletes). The other 9,580
   * are inserted into the change table in batches, since 10,000 task writes take minutes on
   * PostgreSQL here: re-statements of live tasks as they are and phantom tasks created then
   * deleted, with `changed_at` in no particular order across tasks. All are harmless to apply, so the
   * mirror must still equal the server, and the mark must be the largest `changed_at`.
   */
  it('and its copy equals the server, its mark the largest changed_at', { timeout: 120_000 }, async () => {
    const inBig = { params: { path: { project_key: 'BIG' } } };
    for (let call = 0; call < 3; call++) {
      const tasks = Array.from({ length: 100 }, (_, i) => ({ title: `Task ${call * 100 + i + 1}` }));
      await tt.post('/api/v1/projects/{project_key}/tasks/bulk/', { ...inBig, body: { tasks } });
    }
    const renames = Array.from({ length: 100 }, (_, i) => ({ key: `BIG-${i + 1}`, title: `Task ${i + 1}, renamed` }));
    await tt.post('/api/v1/projects/{project_key}/tasks/bulk-update/', { ...inBig, body: { tasks: renames } });
    for (let n = 281; n <= 300; n++)
      await tt.delete('/api/v1/tasks/{task_key}/', { params: { path: { task_key: `BIG-${n}` } } });

    const server: Record<string, Task> = {};
    for await (const task of tt.walk('/api/v1/projects/{project_key}/tasks/', inBig)) server[task.key] = task;
    const live = Object.values(server);
    const projectId = await projectIdOf(h, 'BIG');
    const base = Date.parse('2026-11-21T10:00:00Z') * 1000;
    const stamps: number[] = [];
    const rows = Array.from({ length: 9_580 }, (_, i) => {
      // A fixed scramble over one hour, so that id order and time order disagree; a phantom's
      // deletion comes a microsecond after its creation, as one task's changes always follow each other.
      const micros = base + ((Math.floor(i / 2) * 7_919_993_011) % 3_600_000_000) + (i % 2);
      stamps.push(micros);
      const changed_at = isoFromMicros(micros);
      const phantom = 1_000 + Math.floor(i / 4);
      if (i % 4 < 2) {
        const task = live[i % live.length]!;
        return {
          project_id: projectId,
          task_id: 0,
          task_key: task.key,
          action: 'updated' as const,
          task: JSON.stringify(task),
          changed_at,
        };
      }
      const key = `BIG-${phantom}`;
      return i % 4 === 2
        ? {
            project_id: projectId,
            task_id: phantom,
            task_key: key,
            action: 'created' as const,
            task: JSON.stringify({ ...live[0]!, key }),
            changed_at,
          }
        : {
            project_id: projectId,
            task_id: phantom,
            task_key: key,
            action: 'deleted' as const,
            task: null,
            changed_at,
          };
    });
    for (let i = 0; i < rows.length; i += 500)
      await h.ctx.db
        .insertInto('task_changes')
        .values(rows.slice(i, i + 500))
        .execute();

    const started = performance.now();
    const synced = await syncTasks(tt, { highWater: null, tasks: {} });
    const seconds = (performance.now() - started) / 1000;
    expect(synced.result).toMatchObject({ changes: 10_000, pages: 50 });
    expect(synced.tasks).toEqual(server);
    expect(Object.keys(synced.tasks)).toHaveLength(280);
    expect(synced.tasks['BIG-1']!.title).toBe('Task 1, renamed');
    const maxMicros = Math.max(...stamps);
    expect(synced.highWater).toBe(isoFromMicros(maxMicros));
    console.log(`examples/sync-tasks.ts: 10,000 changes in ${seconds.toFixed(1)} s`);

    // Nothing new: the next run re-reads only the 5 s before the mark (to the millisecond) and changes nothing.
    const again = await syncTasks(tt, synced);
    expect(again.tasks).toEqual(server);
    expect(again.highWater).toBe(synced.highWater);
    const overlapStart = (Math.floor(maxMicros / 1000) - 5_000) * 1000;
    expect(again.result.changes).toBe(stamps.filter((micros) => micros >= overlapStart).length);
  });
});
