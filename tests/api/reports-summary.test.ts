import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { createTask } from '../helpers/factory.ts';

/**
 * Reports keep each project's replayed history between requests (history-cache.ts): every
 * report below is read once before a write and once after, so a summary that missed the write
 * answers the figures of before.
 *
 *   11-10 10:00  X (est 3), Y (est 5), Z (est 1) created in To Do
 *   11-12 12:00  X -> In Progress;  14:00 X back to To Do (the move undone)
 *   11-12 16:00  Y deleted;  17:00 "In Progress" renamed "Doing"
 */
describe('reports stay current as history changes (#34)', () => {
  let h: TestHarness;
  let admin: Actor;
  const at = (iso: string) => h.clock.set(iso);
  const put = async (key: string, body: unknown) => {
    const res = await h.request('PUT', `/api/v1/tasks/${key}/`, { token: admin.token, body });
    expect(res.status, res.text).toBe(200);
  };
  const report = async (path: string) => {
    const res = await h.request('GET', `/api/v1/projects/SUM/reports/${path}`, { token: admin.token });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };
  const flow = () => report('flow/?from=2026-11-10&to=2026-11-12');
  const countsOn = async (date: string) =>
    (await flow()).days.find((d: { date: string }) => d.date === date).counts as Record<string, number>;
  const remaining = async () =>
    (await report('burndown/?from=2026-11-10&to=2026-11-12')).days.map(
      (d: { remaining_estimate: number; remaining_tasks: number }) => [d.remaining_estimate, d.remaining_tasks],
    );
  const hoursOf = async (key: string) =>
    (await flow()).tasks.find((t: { key: string }) => t.key === key)?.hours_in_status as Record<string, number>;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    await h.project(admin, 'SUM');
    at('2026-11-10T10:00:00Z');
    for (const [title, estimate] of [
      ['X', 3],
      ['Y', 5],
      ['Z', 1],
    ] as const)
      await createTask(h, admin, 'SUM', { title, estimate });
    at('2026-11-12T11:00:00Z');
  });
  afterAll(() => h.close());

  it('a change, and the change undone', async () => {
    expect(await countsOn('2026-11-12')).toEqual({ 'To Do': 3, 'In Progress': 0, 'In Review': 0, Done: 0 });
    at('2026-11-12T12:00:00Z');
    await put('SUM-1', { status: 'In Progress' });
    at('2026-11-12T13:00:00Z');
    expect(await countsOn('2026-11-12')).toEqual({ 'To Do': 2, 'In Progress': 1, 'In Review': 0, Done: 0 });
    expect(await hoursOf('SUM-1')).toEqual({ 'To Do': 50, 'In Progress': 1 });

    at('2026-11-12T14:00:00Z');
    await put('SUM-1', { status: 'To Do' });
    at('2026-11-12T15:00:00Z');
    expect(await countsOn('2026-11-12')).toEqual({ 'To Do': 3, 'In Progress': 0, 'In Review': 0, Done: 0 });
    // 11-10 10:00 to 11-12 12:00 and 14:00 to 15:00 in To Do, two hours in between.
    expect(await hoursOf('SUM-1')).toEqual({ 'To Do': 51, 'In Progress': 2 });
    const asOf = await report('flow/?from=2026-11-10&to=2026-11-12&as_of=2026-11-12T13:00:00Z');
    expect(asOf.days.at(-1).counts).toEqual({ 'To Do': 2, 'In Progress': 1, 'In Review': 0, Done: 0 });
  });

  it('a deleted task leaves every day of the reports', async () => {
    expect(await remaining()).toEqual([
      [9, 3],
      [9, 3],
      [9, 3],
    ]);
    at('2026-11-12T16:00:00Z');
    const deleted = await h.request('DELETE', '/api/v1/tasks/SUM-2/', { token: admin.token });
    expect(deleted.status, deleted.text).toBe(204);
    expect(await remaining()).toEqual([
      [4, 2],
      [4, 2],
      [4, 2],
    ]);
    expect((await flow()).days.map((d: { counts: Record<string, number> }) => d.counts['To Do'])).toEqual([2, 2, 2]);
  });

  it('a status renamed after the history was read shows under its new name', async () => {
    expect((await flow()).statuses.map((s: { name: string }) => s.name)).toContain('In Progress');
    const status = await h.ctx.db
      .selectFrom('statuses as s')
      .innerJoin('projects as p', 'p.id', 's.project_id')
      .select('s.id')
      .where('p.key', '=', 'SUM')
      .where('s.name', '=', 'In Progress')
      .executeTakeFirstOrThrow();
    at('2026-11-12T17:00:00Z');
    const renamed = await h.request('PUT', `/api/v1/statuses/${status.id}/`, {
      token: admin.token,
      body: { name: 'Doing' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    at('2026-11-12T17:30:00Z');
    const data = await flow();
    expect(data.statuses.map((s: { name: string }) => s.name)).toEqual(['To Do', 'Doing', 'In Review', 'Done']);
    expect(data.tasks.find((t: { key: string }) => t.key === 'SUM-1').hours_in_status).toEqual({
      'To Do': 53.5,
      Doing: 2,
    });
  });

  it('change records swept by retention leave the figures as they were', async () => {
    const before = await flow();
    await h.ctx.db.deleteFrom('task_changes').where('task_key', '=', 'SUM-1').where('action', '=', 'updated').execute();
    at('2026-11-12T18:00:00Z');
    await put('SUM-3', { estimate: 2 });
    const after = await flow();
    expect(after.days).toEqual(before.days);
    const keys = (data: { tasks: Array<{ key: string }> }) => data.tasks.map((t) => t.key);
    expect(keys(after)).toEqual(keys(before));
    expect(await remaining()).toEqual([
      [4, 2],
      [4, 2],
      [5, 2],
    ]);
  });

  it('flow answers the tasks a page at a time', async () => {
    const first = await report('flow/?from=2026-11-10&to=2026-11-12&limit=1');
    expect(first.tasks.map((t: { key: string }) => t.key)).toEqual(['SUM-1']);
    expect(first.tasks_pagination).toMatchObject({ limit: 1, has_more: true });
    expect(first.days).toHaveLength(3);
    const second = await report(
      `flow/?from=2026-11-10&to=2026-11-12&limit=1&cursor=${first.tasks_pagination.next_cursor}`,
    );
    expect(second.tasks.map((t: { key: string }) => t.key)).toEqual(['SUM-3']);
    expect(second.tasks_pagination).toMatchObject({ limit: 1, has_more: false });
    expect(second.days).toEqual(first.days);
    const bad = await h.request('GET', '/api/v1/projects/SUM/reports/flow/?from=2026-11-10&to=2026-11-12&cursor=x!', {
      token: admin.token,
    });
    expect(bad.status).toBe(400);
  });
});
