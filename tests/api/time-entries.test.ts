import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { changesFor, createTask, eventsFor, projectTeam } from '../helpers/factory.ts';

describe("time entries and the task's time_spent_minutes", () => {
  let h: TestHarness;
  let owner: Actor;
  let alice: Actor;
  let bob: Actor;
  let projectAdmin: Actor;
  let viewer: Actor;
  let outsider: Actor;

  beforeAll(async () => {
    h = await createHarness();
    ({ owner, alice, bob, projectAdmin, viewer, outsider } = await projectTeam(h, 'TIME'));
  });
  afterAll(() => h.close());

  const log = (key: string, body: unknown, token = alice.token) =>
    h.request('POST', `/api/v1/tasks/${key}/time-entries/`, { token, body });
  const getTask = (key: string) => h.request('GET', `/api/v1/tasks/${key}/`, { token: alice.token });

  it('logging returns 201 with the entry, attributed to the token\'s account; note defaults to ""', async () => {
    const task = await createTask(h, owner, 'TIME');
    const res = await log(task.key, { minutes: 90, date: '2026-11-20' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      task: task.key,
      user: alice.accountId,
      minutes: 90,
      date: '2026-11-20',
      note: '',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      updated_at: res.body.data.created_at,
    });
    const read = await h.request('GET', `/api/v1/time-entries/${res.body.data.id}/`, { token: viewer.token });
    expect(read.body.data).toEqual(res.body.data);
  });

  it("time_spent_minutes is the sum of the task's entries, in the task JSON of reads and of lists", async () => {
    const task = await createTask(h, owner, 'TIME');
    const other = await createTask(h, owner, 'TIME');
    const untouched = await createTask(h, owner, 'TIME');
    expect(task.time_spent_minutes).toBe(0);
    await log(task.key, { minutes: 30, date: '2026-11-19' });
    await log(task.key, { minutes: 45, date: '2026-11-20', note: 'review' }, bob.token);
    await log(other.key, { minutes: 1440, date: '2026-11-20' });
    expect((await getTask(task.key)).body.data.time_spent_minutes).toBe(75);

    const list = await h.request('GET', '/api/v1/projects/TIME/tasks/?limit=200', { token: alice.token });
    const spent = Object.fromEntries(
      list.body.data.map((t: { key: string; time_spent_minutes: number }) => [t.key, t.time_spent_minutes]),
    );
    expect(spent).toMatchObject({ [task.key]: 75, [other.key]: 1440, [untouched.key]: 0 });
  });

  it('task lists load the totals in one query per page: the number of queries does not grow with the page (no N+1)', async () => {
    await h.project(owner, 'BATCH');
    const original = h.ctx.db;
    const queriesToList = async () => {
      let count = 0;
      h.ctx.db = original.withPlugin({
        transformQuery: (args) => {
          count += 1;
          return args.node;
        },
        transformResult: async (args) => args.result,
      });
      try {
        const res = await h.request('GET', '/api/v1/projects/BATCH/tasks/?limit=200', { token: owner.token });
        expect(res.status).toBe(200);
        return { count, tasks: res.body.data.length as number };
      } finally {
        h.ctx.db = original;
      }
    };
    const addTasks = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const task = await createTask(h, owner, 'BATCH');
        await log(task.key, { minutes: 5, date: '2026-11-20' }, owner.token);
      }
    };
    await addTasks(2);
    // The first read also loads the caller's visible projects, which later reads reuse (auth-cache.ts).
    await queriesToList();
    const few = await queriesToList();
    await addTasks(12);
    const many = await queriesToList();
    expect([few.tasks, many.tasks]).toEqual([2, 14]);
    expect(few.count).toBeGreaterThan(0);
    expect(many.count).toBe(few.count);
  });

  it('a change of the total is a task change: new ETag and updated_at, a change record, task.updated with changes.time_spent_minutes, an activity row', async () => {
    const task = await createTask(h, owner, 'TIME');
    h.clock.advance(60_000);
    const res = await log(task.key, { minutes: 25, date: '2026-11-21' }, bob.token);
    const after = await getTask(task.key);
    expect(after.headers.etag).toBe('"v2"');
    expect(after.body.data.time_spent_minutes).toBe(25);
    expect(after.body.data.updated_at > task.updated_at).toBe(true);

    const changes = await changesFor(h, task.key);
    expect(changes.map((c) => c.action)).toEqual(['created', 'updated']);
    expect(changes[1]!.task).toEqual(after.body.data);

    const events = await eventsFor(h, task.key);
    expect(events.map((e) => e.type)).toEqual(['task.created', 'task.updated']);
    expect(events[1]).toMatchObject({
      actor: { id: bob.accountId },
      data: { task: after.body.data, changes: { time_spent_minutes: { from: 0, to: 25 } } },
    });

    const activity = await h.request('GET', `/api/v1/tasks/${task.key}/activities/`, { token: alice.token });
    expect(activity.body.data[0]).toMatchObject({
      action: 'updated',
      field: 'time_spent_minutes',
      from: 0,
      to: 25,
      actor: { id: bob.accountId },
    });

    // A PUT of the task with the old ETag is now refused: the task changed since that read.
    const stale = await h.request('PUT', `/api/v1/tasks/${task.key}/`, {
      token: alice.token,
      body: { title: 'x' },
      headers: { 'if-match': '"v1"' },
    });
    expect(stale.status).toBe(412);
    expect(res.body.data.user).toBe(bob.accountId);
  });

  it("editing an entry's date or note leaves the task as it is; editing minutes or deleting moves the total", async () => {
    const task = await createTask(h, owner, 'TIME');
    const entry = (await log(task.key, { minutes: 60, date: '2026-11-18' })).body.data;
    const etag = (await getTask(task.key)).headers.etag;

    h.clock.advance(1000);
    const noteOnly = await h.request('PUT', `/api/v1/time-entries/${entry.id}/`, {
      token: alice.token,
      body: { note: 'pairing', date: '2026-11-17' },
    });
    expect(noteOnly.status).toBe(200);
    expect(noteOnly.body.data).toEqual({
      ...entry,
      note: 'pairing',
      date: '2026-11-17',
      updated_at: expect.any(String),
    });
    expect(noteOnly.body.data.updated_at > entry.updated_at).toBe(true);
    expect((await getTask(task.key)).headers.etag).toBe(etag);

    const unchanged = await h.request('PUT', `/api/v1/time-entries/${entry.id}/`, {
      token: alice.token,
      body: { minutes: 60 },
    });
    expect(unchanged.body.data).toEqual(noteOnly.body.data);

    const minutes = await h.request('PUT', `/api/v1/time-entries/${entry.id}/`, {
      token: alice.token,
      body: { minutes: 15 },
    });
    expect(minutes.body.data.minutes).toBe(15);
    const afterEdit = await getTask(task.key);
    expect(afterEdit.body.data.time_spent_minutes).toBe(15);
    expect(afterEdit.headers.etag).not.toBe(etag);

    expect((await h.request('DELETE', `/api/v1/time-entries/${entry.id}/`, { token: alice.token })).status).toBe(204);
    expect((await getTask(task.key)).body.data.time_spent_minutes).toBe(0);
    const updates = (await eventsFor(h, task.key)).filter((e) => e.type === 'task.updated');
    expect(updates.map((e) => e.data.changes)).toEqual([
      { time_spent_minutes: { from: 0, to: 60 } },
      { time_spent_minutes: { from: 60, to: 15 } },
      { time_spent_minutes: { from: 15, to: 0 } },
    ]);
    expect((await h.request('GET', `/api/v1/time-entries/${entry.id}/`, { token: alice.token })).status).toBe(404);
  });

  it('validates: minutes an integer 1-1440, date a real YYYY-MM-DD, note at most 2,000 characters, no other fields (no "user")', async () => {
    const task = await createTask(h, owner, 'TIME');
    const refused: unknown[] = [
      { date: '2026-11-20' },
      { minutes: 30 },
      { minutes: 0, date: '2026-11-20' },
      { minutes: 1441, date: '2026-11-20' },
      { minutes: 1.5, date: '2026-11-20' },
      { minutes: '30', date: '2026-11-20' },
      { minutes: 30, date: '2026-02-30' },
      { minutes: 30, date: '2026-1-5' },
      { minutes: 30, date: '2026-11-20T10:00:00Z' },
      { minutes: 30, date: '2026-11-20', note: 'n'.repeat(2001) },
      { minutes: 30, date: '2026-11-20', note: 'nul\u0000' },
      { minutes: 30, date: '2026-11-20', user: bob.accountId },
    ];
    for (const body of refused) {
      const res = await log(task.key, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const edges = await log(task.key, { minutes: 1440, date: '2028-02-29', note: 'n'.repeat(2000) });
    expect(edges.status).toBe(201);
    const entry = edges.body.data;
    for (const body of [{ minutes: 0 }, { date: 'yesterday' }, { user: bob.accountId }, { task: 'TIME-1' }]) {
      expect(
        (await h.request('PUT', `/api/v1/time-entries/${entry.id}/`, { token: alice.token, body })).status,
        JSON.stringify(body),
      ).toBe(400);
    }
    expect((await getTask(task.key)).body.data.time_spent_minutes).toBe(1440);
  });

  it('only the account that logged an entry changes or deletes it (403 for others, admins included)', async () => {
    const task = await createTask(h, owner, 'TIME');
    const entry = (await log(task.key, { minutes: 30, date: '2026-11-20' })).body.data;
    for (const actor of [bob, projectAdmin, owner]) {
      const put = await h.request('PUT', `/api/v1/time-entries/${entry.id}/`, {
        token: actor.token,
        body: { minutes: 1 },
      });
      expect(put.status).toBe(403);
      expect(put.body.error.code).toBe('FORBIDDEN');
      expect((await h.request('DELETE', `/api/v1/time-entries/${entry.id}/`, { token: actor.token })).status).toBe(403);
    }
    expect((await h.request('GET', `/api/v1/time-entries/${entry.id}/`, { token: bob.token })).body.data).toEqual(
      entry,
    );
    expect((await getTask(task.key)).body.data.time_spent_minutes).toBe(30);
  });

  it('project viewers read time entries but cannot log time (403)', async () => {
    const task = await createTask(h, owner, 'TIME');
    await log(task.key, { minutes: 30, date: '2026-11-20' });
    expect((await h.request('GET', `/api/v1/tasks/${task.key}/time-entries/`, { token: viewer.token })).status).toBe(
      200,
    );
    const res = await log(task.key, { minutes: 30, date: '2026-11-20' }, viewer.token);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect((await getTask(task.key)).body.data.time_spent_minutes).toBe(30);
  });

  it('lists by date (oldest first) by default; ordering by -minutes or created_at; paginated', async () => {
    const task = await createTask(h, owner, 'TIME');
    const a = (await log(task.key, { minutes: 10, date: '2026-11-20' })).body.data;
    const b = (await log(task.key, { minutes: 50, date: '2026-11-18' }, bob.token)).body.data;
    const c = (await log(task.key, { minutes: 30, date: '2026-11-19' })).body.data;
    const ids = async (query: string) =>
      (
        await h.request('GET', `/api/v1/tasks/${task.key}/time-entries/${query}`, { token: viewer.token })
      ).body.data.map((e: { id: number }) => e.id);
    expect(await ids('')).toEqual([b.id, c.id, a.id]);
    expect(await ids('?ordering=-minutes')).toEqual([b.id, c.id, a.id]);
    expect(await ids('?ordering=created_at')).toEqual([a.id, b.id, c.id]);
    expect(await ids('?ordering=-date&limit=1&offset=1')).toEqual([c.id]);
    const res = await h.request('GET', `/api/v1/tasks/${task.key}/time-entries/?limit=2`, { token: viewer.token });
    expect(res.body.pagination).toEqual({ count: 3, limit: 2, offset: 0 });
  });

  it('an invisible task or entry is 404 on every route', async () => {
    const task = await createTask(h, owner, 'TIME');
    const entry = (await log(task.key, { minutes: 30, date: '2026-11-20' })).body.data;
    await h.project(owner, 'AWAY');
    const { token: elsewhere } = await h.tokenFor(owner.accountId, undefined, ['AWAY']);
    for (const token of [outsider.token, elsewhere]) {
      expect((await h.request('GET', `/api/v1/tasks/${task.key}/time-entries/`, { token })).status).toBe(404);
      expect((await log(task.key, { minutes: 1, date: '2026-11-20' }, token)).status).toBe(404);
      expect((await h.request('GET', `/api/v1/time-entries/${entry.id}/`, { token })).status).toBe(404);
      expect(
        (await h.request('PUT', `/api/v1/time-entries/${entry.id}/`, { token, body: { minutes: 1 } })).status,
      ).toBe(404);
      expect((await h.request('DELETE', `/api/v1/time-entries/${entry.id}/`, { token })).status).toBe(404);
    }
    expect((await log('TIME-99999', { minutes: 1, date: '2026-11-20' })).status).toBe(404);
  });

  it('deleting the task deletes its time entries', async () => {
    const task = await createTask(h, owner, 'TIME');
    const entry = (await log(task.key, { minutes: 30, date: '2026-11-20' })).body.data;
    expect((await h.request('DELETE', `/api/v1/tasks/${task.key}/`, { token: owner.token })).status).toBe(204);
    expect((await h.request('GET', `/api/v1/time-entries/${entry.id}/`, { token: alice.token })).status).toBe(404);
  });

  it('concurrent logs on one task all count: the total is exact and each change is recorded', async () => {
    const task = await createTask(h, owner, 'TIME');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        log(task.key, { minutes: i + 1, date: '2026-11-20' }, i % 2 ? alice.token : bob.token),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    const after = await getTask(task.key);
    expect(after.body.data.time_spent_minutes).toBe(36);
    expect(after.headers.etag).toBe('"v9"');
    const tos = (await eventsFor(h, task.key))
      .filter((e) => e.type === 'task.updated')
      .map((e) => (e.data.changes as { time_spent_minutes: { to: number } }).time_spent_minutes.to);
    expect(tos.at(-1)).toBe(36);
    expect(tos).toHaveLength(8);
  });
});
