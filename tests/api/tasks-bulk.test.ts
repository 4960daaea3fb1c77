import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { addLabel, changesFor, createTask, eventsFor, projectId, taskRows } from '../helpers/factory.ts';

describe('bulk create and bulk update: all or nothing, every refused item reported, one request against the rate limit', () => {
  let h: TestHarness;
  let admin: Actor;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    await h.project(admin, 'BULK');
    await addLabel(h, 'BULK', 'ops');
  });
  afterAll(() => h.close());

  const taskCount = async () => (await taskRows(h, await projectId(h, 'BULK'))).length;
  const bulk = (body: unknown, token = admin.token) =>
    h.request('POST', '/api/v1/projects/BULK/tasks/bulk/', { token, body });
  const bulkUpdate = (body: unknown, token = admin.token) =>
    h.request('POST', '/api/v1/projects/BULK/tasks/bulk-update/', { token, body });

  it('creates every task in order with consecutive keys, each with its own change record and task.created', async () => {
    const res = await bulk({
      tasks: [{ title: 'one' }, { title: 'two', labels: ['ops'], priority: 'Low' }, { title: 'three' }],
    });
    expect(res.status).toBe(201);
    expect(res.body.data.map((t: { key: string; title: string }) => [t.key, t.title])).toEqual([
      ['BULK-1', 'one'],
      ['BULK-2', 'two'],
      ['BULK-3', 'three'],
    ]);
    expect(res.body.data[1]).toMatchObject({ labels: ['ops'], priority: 'Low' });
    for (const task of res.body.data) {
      expect((await changesFor(h, task.key)).map((c) => c.action)).toEqual(['created']);
      expect((await eventsFor(h, task.key)).map((e) => e.type)).toEqual(['task.created']);
    }
  });

  it('all or nothing: one bad item fails the call with per-item errors, and nothing is created or numbered', async () => {
    const before = await taskCount();
    const res = await bulk({
      tasks: [
        { title: 'fine' },
        { title: 'bad', priority: 'Nope' },
        { title: 'fine too' },
        { title: 'x', labels: ['zzz'] },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.items).toEqual([
      {
        index: 1,
        code: 'VALIDATION_ERROR',
        message: expect.any(String),
        fields: { priority: expect.stringMatching(/Nope/) },
      },
      {
        index: 3,
        code: 'VALIDATION_ERROR',
        message: expect.any(String),
        fields: { labels: expect.stringMatching(/zzz/) },
      },
    ]);
    expect(await taskCount()).toBe(before);
    expect((await bulk({ tasks: [{ title: 'next' }] })).body.data[0].key).toBe('BULK-4');
  });

  it('schema errors are reported per item too; an empty list, over 100 items or a missing tasks field are plain 400s', async () => {
    const res = await bulk({ tasks: [{ title: 'ok' }, { nope: 1 }, { title: '' }] });
    expect(res.status).toBe(400);
    expect(res.body.error.details.items).toEqual([
      {
        index: 1,
        code: 'VALIDATION_ERROR',
        message: expect.any(String),
        fields: { title: 'is required', nope: 'is not a known field' },
      },
      { index: 2, code: 'VALIDATION_ERROR', message: expect.any(String), fields: { title: expect.any(String) } },
    ]);
    for (const body of [{ tasks: [] }, { tasks: Array.from({ length: 101 }, () => ({ title: 'x' })) }, {}]) {
      const r = await bulk(body);
      expect(r.status).toBe(400);
      expect(r.body.error.details.fields).toHaveProperty('tasks');
    }
  });

  it('100 items is the maximum and counts as one request against the rate limit', async () => {
    const { token } = await h.tokenFor(admin.accountId);
    const before = await h.request('GET', '/api/v1/projects/BULK/tasks/?limit=1', { token });
    const res = await bulk({ tasks: Array.from({ length: 100 }, (_, i) => ({ title: `n${i}` })) }, token);
    expect(res.status).toBe(201);
    expect(res.body.data).toHaveLength(100);
    expect(Number(res.headers['ratelimit-remaining'])).toBe(Number(before.headers['ratelimit-remaining']) - 1);
  });

  it('bulk-update applies each item, with its own change record and events; a status move follows the workflow', async () => {
    const a = await createTask(h, admin, 'BULK', { title: 'a' });
    const b = await createTask(h, admin, 'BULK', { title: 'b' });
    const res = await bulkUpdate({
      tasks: [
        { key: a.key, status: 'In Progress' },
        { key: b.key, title: 'b2', labels: ['ops'] },
      ],
    });
    expect(res.status).toBe(200);
    expect(
      res.body.data.map((t: { key: string; status: string; title: string }) => [t.key, t.status, t.title]),
    ).toEqual([
      [a.key, 'In Progress', 'a'],
      [b.key, 'To Do', 'b2'],
    ]);
    expect((await eventsFor(h, a.key)).map((e) => e.type)).toEqual([
      'task.created',
      'task.updated',
      'task.status_changed',
    ]);
    expect((await eventsFor(h, b.key)).map((e) => e.type)).toEqual(['task.created', 'task.updated']);
    expect((await changesFor(h, b.key)).map((c) => c.action)).toEqual(['created', 'updated']);
  });

  it('bulk-update is all or nothing: an invalid transition, an unknown key or a foreign task fails the whole call', async () => {
    await h.project(admin, 'OTHER');
    const foreign = await createTask(h, admin, 'OTHER');
    const a = await createTask(h, admin, 'BULK', { title: 'a' });
    const b = await createTask(h, admin, 'BULK', { title: 'b' });
    const res = await bulkUpdate({
      tasks: [
        { key: a.key, title: 'renamed' },
        { key: b.key, status: 'Done' },
        { key: 'BULK-99999', title: 'x' },
        { key: foreign.key, title: 'x' },
        { key: a.key, assignee: 999999 },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.items).toEqual([
      {
        index: 1,
        key: b.key,
        code: 'INVALID_TRANSITION',
        message: expect.any(String),
        fields: { status: expect.any(String) },
        from: 'To Do',
        to: 'Done',
      },
      {
        index: 2,
        key: 'BULK-99999',
        code: 'NOT_FOUND',
        message: expect.any(String),
        fields: { key: expect.any(String) },
      },
      {
        index: 3,
        key: foreign.key,
        code: 'NOT_FOUND',
        message: expect.any(String),
        fields: { key: expect.any(String) },
      },
      {
        index: 4,
        key: a.key,
        code: 'VALIDATION_ERROR',
        message: expect.any(String),
        fields: { assignee: expect.any(String) },
      },
    ]);
    const after = await h.request('GET', `/api/v1/tasks/${a.key}/`, { token: admin.token });
    expect(after.body.data).toEqual(a);
    expect((await changesFor(h, a.key)).map((c) => c.action)).toEqual(['created']);
    expect((await eventsFor(h, a.key)).map((e) => e.type)).toEqual(['task.created']);
  });

  it('concurrent bulk updates touching the same tasks in opposite orders both complete (no deadlock)', async () => {
    const a = await createTask(h, admin, 'BULK');
    const b = await createTask(h, admin, 'BULK');
    const results = await Promise.all([
      bulkUpdate({
        tasks: [
          { key: a.key, description: '1' },
          { key: b.key, description: '1' },
        ],
      }),
      bulkUpdate({
        tasks: [
          { key: b.key, description: '2' },
          { key: a.key, description: '2' },
        ],
      }),
      h.request('PUT', `/api/v1/tasks/${b.key}/`, { token: admin.token, body: { title: 'solo' } }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const final = await h.request('GET', `/api/v1/tasks/${a.key}/`, { token: admin.token });
    expect(final.headers.etag).toBe('"v3"');
  });

  it('bulk-update items are applied in order, so the same task can move twice in one call', async () => {
    const a = await createTask(h, admin, 'BULK');
    const res = await bulkUpdate({
      tasks: [
        { key: a.key, status: 'In Progress' },
        { key: a.key, status: 'Done' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: { status: string }) => t.status)).toEqual(['In Progress', 'Done']);
    const schema = await bulkUpdate({ tasks: [{ title: 'no key' }, { key: a.key, status: 5 }] });
    expect(schema.body.error.details.items).toEqual([
      { index: 0, code: 'VALIDATION_ERROR', message: expect.any(String), fields: { key: 'is required' } },
      {
        index: 1,
        key: a.key,
        code: 'VALIDATION_ERROR',
        message: expect.any(String),
        fields: { status: expect.any(String) },
      },
    ]);
  });
});
