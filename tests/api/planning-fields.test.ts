import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { activitiesOf, changesFor, createTask, eventsFor, taskId } from '../helpers/factory.ts';

describe('planning fields: start_date, estimate, the estimate unit and roll-ups (#34)', () => {
  let h: TestHarness;
  let admin: Actor;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    await h.project(admin, 'PLAN');
  });
  afterAll(() => h.close());

  const put = (key: string, body: unknown) => h.request('PUT', `/api/v1/tasks/${key}/`, { token: admin.token, body });
  const get = (key: string) => h.request('GET', `/api/v1/tasks/${key}/`, { token: admin.token });
  const subtask = (key: string, body: Record<string, unknown>) =>
    h.request('POST', `/api/v1/tasks/${key}/subtasks/`, { token: admin.token, body: { title: 'child', ...body } });

  it('create and update take start_date and estimate; the task JSON, activity, change record and event carry them', async () => {
    const created = await createTask(h, admin, 'PLAN', { title: 'Plan', start_date: '2026-11-23', estimate: 3 });
    expect(created).toMatchObject({ start_date: '2026-11-23', estimate: 3, rollup: null });

    const res = await put(created.key, { start_date: '2026-11-24', due_date: '2026-11-30', estimate: 2.5 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ start_date: '2026-11-24', due_date: '2026-11-30', estimate: 2.5 });
    expect((await get(created.key)).body.data).toMatchObject({ start_date: '2026-11-24', estimate: 2.5 });

    const activity = await activitiesOf(h, await taskId(h, created.key));
    expect(
      activity
        .filter((a) => a.field === 'start_date' || a.field === 'estimate')
        .map((a) => [a.field, JSON.parse(a.from_value!), JSON.parse(a.to_value!)]),
    ).toEqual([
      ['start_date', '2026-11-23', '2026-11-24'],
      ['estimate', 3, 2.5],
    ]);
    const updated = (await eventsFor(h, created.key)).filter((e) => e.type === 'task.updated').at(-1)!;
    expect(updated.data.changes).toEqual({
      due_date: { from: null, to: '2026-11-30' },
      start_date: { from: '2026-11-23', to: '2026-11-24' },
      estimate: { from: 3, to: 2.5 },
    });
    const change = (await changesFor(h, created.key)).at(-1)!;
    expect(change.task).toMatchObject({ start_date: '2026-11-24', estimate: 2.5 });

    const cleared = await put(created.key, { start_date: null, estimate: null });
    expect(cleared.body.data).toMatchObject({ start_date: null, estimate: null });
  });

  it('a start after the due date is a 400 VALIDATION_ERROR naming both fields, on create, update and bulk; nothing changes', async () => {
    const refusedCreate = await h.request('POST', '/api/v1/projects/PLAN/tasks/', {
      token: admin.token,
      body: { title: 'x', start_date: '2026-12-02', due_date: '2026-12-01' },
    });
    expect(refusedCreate.status).toBe(400);
    expect(refusedCreate.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(refusedCreate.body.error.details.fields).sort()).toEqual(['due_date', 'start_date']);

    const task = await createTask(h, admin, 'PLAN', { title: 'Dated', start_date: '2026-12-01' });
    // Moving only the due date before the stored start is refused too.
    const refusedUpdate = await put(task.key, { due_date: '2026-11-30' });
    expect(refusedUpdate.status).toBe(400);
    expect(refusedUpdate.body.error.details.fields).toEqual({
      start_date: 'must not be after due_date (2026-11-30)',
      due_date: 'must not be before start_date (2026-12-01)',
    });
    const bulk = await h.request('POST', '/api/v1/projects/PLAN/tasks/bulk-update/', {
      token: admin.token,
      body: { tasks: [{ key: task.key, start_date: '2026-12-05', due_date: '2026-12-04' }] },
    });
    expect(bulk.status).toBe(400);
    expect(Object.keys(bulk.body.error.details.items[0].fields).sort()).toEqual(['due_date', 'start_date']);
    expect((await get(task.key)).body.data).toMatchObject({ start_date: '2026-12-01', due_date: null });
    // The same day for both is fine.
    expect((await put(task.key, { due_date: '2026-12-01' })).status).toBe(200);
  });

  it('an estimate is a non-negative number', async () => {
    const task = await createTask(h, admin, 'PLAN', { title: 'Sized' });
    for (const estimate of [-1, '3', true]) {
      const res = await put(task.key, { estimate });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.error.details.fields)).toEqual(['estimate']);
    }
    expect((await put(task.key, { estimate: 0 })).body.data.estimate).toBe(0);
  });

  it('bulk create and bulk update set the fields', async () => {
    const created = await h.request('POST', '/api/v1/projects/PLAN/tasks/bulk/', {
      token: admin.token,
      body: {
        tasks: [
          { title: 'b1', estimate: 1, start_date: '2026-11-01' },
          { title: 'b2', estimate: 8 },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.map((t: { estimate: number }) => t.estimate)).toEqual([1, 8]);
    const [first] = created.body.data;
    const updated = await h.request('POST', '/api/v1/projects/PLAN/tasks/bulk-update/', {
      token: admin.token,
      body: { tasks: [{ key: first.key, estimate: 13 }] },
    });
    expect(updated.status, updated.text).toBe(200);
    expect((await get(first.key)).body.data.estimate).toBe(13);
  });

  it('the estimate unit is a project setting, points unless set, and project.updated reports its change', async () => {
    const project = (await h.request('GET', '/api/v1/projects/?limit=100', { token: admin.token })).body.data.find(
      (p: { key: string }) => p.key === 'PLAN',
    );
    expect(project.estimate_unit).toBe('points');
    const res = await h.request('PATCH', `/api/v1/projects/${project.id}/`, {
      token: admin.token,
      body: { estimate_unit: 'hours' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.estimate_unit).toBe('hours');
    const bad = await h.request('PATCH', `/api/v1/projects/${project.id}/`, {
      token: admin.token,
      body: { estimate_unit: 'days' },
    });
    expect(bad.status).toBe(400);
    const event = await h.ctx.db
      .selectFrom('event_outbox')
      .select('envelope')
      .where('type', '=', 'project.updated')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.envelope).data.changes).toEqual({ estimate_unit: { from: 'points', to: 'hours' } });
    await h.request('PATCH', `/api/v1/projects/${project.id}/`, {
      token: admin.token,
      body: { estimate_unit: 'points' },
    });
  });

  it('rollup sums the subtree: estimates, done estimates and logged minutes, at any depth; null without subtasks', async () => {
    const epic = await createTask(h, admin, 'PLAN', { title: 'Epic', estimate: 1 });
    const a = (await subtask(epic.key, { estimate: 2 })).body.data;
    const b = (await subtask(epic.key, { estimate: 3 })).body.data;
    const a1 = (await subtask(a.key, { estimate: 5 })).body.data;
    await subtask(a1.key, {});
    expect((await put(b.key, { status: 'In Progress' })).status).toBe(200);
    expect((await put(b.key, { status: 'Done' })).status).toBe(200);
    for (const [key, minutes] of [
      [epic.key, 10],
      [a1.key, 30],
      [b.key, 45],
    ] as const) {
      const logged = await h.request('POST', `/api/v1/tasks/${key}/time-entries/`, {
        token: admin.token,
        body: { minutes, date: '2026-11-20' },
      });
      expect(logged.status, logged.text).toBe(201);
    }
    expect((await get(epic.key)).body.data.rollup).toEqual({ estimate: 11, done_estimate: 3, time_spent_minutes: 85 });
    expect((await get(a.key)).body.data.rollup).toEqual({ estimate: 7, done_estimate: 0, time_spent_minutes: 30 });
    expect((await get(b.key)).body.data.rollup).toBeNull();
    const listed = await h.request('GET', `/api/v1/tasks/${epic.key}/subtasks/`, { token: admin.token });
    expect(listed.body.data.map((t: { rollup: unknown }) => t.rollup)).toEqual([
      { estimate: 7, done_estimate: 0, time_spent_minutes: 30 },
      null,
    ]);
  });

  it('the query language knows start and estimate: compare, order by, is empty', async () => {
    await h.project(admin, 'QRY');
    await createTask(h, admin, 'QRY', { title: 'small', estimate: 1, start_date: '2026-11-02' });
    await createTask(h, admin, 'QRY', { title: 'big', estimate: 8, start_date: '2026-11-10' });
    await createTask(h, admin, 'QRY', { title: 'none' });
    const titles = async (q: string) => {
      const res = await h.request('GET', `/api/v1/projects/QRY/tasks/?q=${encodeURIComponent(q)}`, {
        token: admin.token,
      });
      expect(res.status, res.text).toBe(200);
      return res.body.data.map((t: { title: string }) => t.title);
    };
    expect(await titles('estimate >= 2')).toEqual(['big']);
    expect(await titles('estimate = 1')).toEqual(['small']);
    expect(await titles('estimate is empty')).toEqual(['none']);
    expect(await titles('start < 2026-11-05')).toEqual(['small']);
    expect(await titles('start is not empty ORDER BY estimate DESC')).toEqual(['big', 'small']);
    expect(await titles('ORDER BY start')).toEqual(['small', 'big', 'none']);
    const bad = await h.request('GET', `/api/v1/projects/QRY/tasks/?q=${encodeURIComponent('estimate > lots')}`, {
      token: admin.token,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_QUERY');
  });
});
