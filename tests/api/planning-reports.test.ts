import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { createTask } from '../helpers/factory.ts';

/**
 * One sprint's history, changed over days with the injected clock, and every report checked
 * against figures worked out by hand (in the comments). "In Progress" is renamed "Doing" on
 * 11-04: the reports show it as one status under its name now.
 *
 *   11-01 10:00  A (est 3, S1), B (est 5, S1), C (no estimate, no sprint) created, in To Do
 *   11-02 10:00  A -> In Progress
 *   11-03 10:00  A -> Done; C gets estimate 2 and joins S1
 *   11-04 09:00  "In Progress" renamed "Doing"; 10:00 B -> Doing
 *   11-05 10:00  B's estimate 5 -> 8
 *   11-06 10:00  B -> Done; C leaves S1
 *   11-07 10:00  S1 completed
 */
describe('reports from history (#34)', () => {
  let h: TestHarness;
  let admin: Actor;
  let stranger: Actor;
  let sprint: number;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    stranger = await h.actor();
    await h.project(admin, 'REP');
    const at = (iso: string) => h.clock.set(iso);
    const put = async (key: string, body: unknown) => {
      const res = await h.request('PUT', `/api/v1/tasks/${key}/`, { token: admin.token, body });
      expect(res.status, res.text).toBe(200);
    };
    at('2026-10-30T12:00:00Z');
    const created = await h.request('POST', '/api/v1/projects/REP/sprints/', {
      token: admin.token,
      body: { name: 'S1', start_date: '2026-11-02', end_date: '2026-11-06', state: 'active' },
    });
    sprint = created.body.data.id;
    at('2026-11-01T10:00:00Z');
    const a = await createTask(h, admin, 'REP', { title: 'A', estimate: 3, sprint });
    const b = await createTask(h, admin, 'REP', { title: 'B', estimate: 5, sprint });
    const c = await createTask(h, admin, 'REP', { title: 'C' });
    expect([a.key, b.key, c.key]).toEqual(['REP-1', 'REP-2', 'REP-3']);
    at('2026-11-02T10:00:00Z');
    await put('REP-1', { status: 'In Progress' });
    at('2026-11-03T10:00:00Z');
    await put('REP-1', { status: 'Done' });
    await put('REP-3', { estimate: 2, sprint });
    at('2026-11-04T09:00:00Z');
    const inProgress = await h.ctx.db
      .selectFrom('statuses as s')
      .innerJoin('projects as p', 'p.id', 's.project_id')
      .select('s.id')
      .where('p.key', '=', 'REP')
      .where('s.name', '=', 'In Progress')
      .executeTakeFirstOrThrow();
    const renamed = await h.request('PUT', `/api/v1/statuses/${inProgress.id}/`, {
      token: admin.token,
      body: { name: 'Doing' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    at('2026-11-04T10:00:00Z');
    await put('REP-2', { status: 'Doing' });
    at('2026-11-05T10:00:00Z');
    await put('REP-2', { estimate: 8 });
    at('2026-11-06T10:00:00Z');
    await put('REP-2', { status: 'Done' });
    await put('REP-3', { sprint: null });
    at('2026-11-07T10:00:00Z');
    const closed = await h.request('PUT', `/api/v1/sprints/${sprint}/`, {
      token: admin.token,
      body: { state: 'completed' },
    });
    expect(closed.status, closed.text).toBe(200);
    at('2026-11-08T12:00:00Z');
  });
  afterAll(() => h.close());

  const report = async (path: string, token = admin.token) => {
    const res = await h.request('GET', `/api/v1/projects/REP/reports/${path}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };

  it('burndown of a sprint: remaining per day, scope added and removed, the ideal line', async () => {
    const data = await report(`burndown/?sprint=${sprint}`);
    expect(data).toMatchObject({ project: 'REP', unit: 'points', from: '2026-11-02', to: '2026-11-06' });
    expect(data.sprint).toEqual({ id: sprint, name: 'S1', start_date: '2026-11-02', end_date: '2026-11-06' });
    const day = (
      date: string,
      remaining: number,
      tasks: number,
      added: [number, number],
      removed: [number, number],
      ideal: number,
    ) => ({
      date,
      remaining_estimate: remaining,
      remaining_tasks: tasks,
      added_tasks: added[0],
      added_estimate: added[1],
      removed_tasks: removed[0],
      removed_estimate: removed[1],
      ideal_estimate: ideal,
    });
    expect(data.days).toEqual([
      day('2026-11-02', 8, 2, [0, 0], [0, 0], 8),
      day('2026-11-03', 7, 2, [1, 2], [0, 0], 6),
      day('2026-11-04', 7, 2, [0, 0], [0, 0], 4),
      day('2026-11-05', 10, 2, [0, 0], [0, 0], 2),
      day('2026-11-06', 0, 0, [0, 0], [1, 2], 0),
    ]);
  });

  it('as_of: the burndown as it stood on 11-04 at noon, before the later changes', async () => {
    const data = await report(`burndown/?sprint=${sprint}&as_of=2026-11-04T12:00:00Z`);
    expect(data.as_of).toBe('2026-11-04T12:00:00.000999Z');
    expect(data.days.map((d: { date: string; remaining_estimate: number }) => [d.date, d.remaining_estimate])).toEqual([
      ['2026-11-02', 8],
      ['2026-11-03', 7],
      ['2026-11-04', 7],
    ]);
    // Without a sprint: every task of the project over a date range.
    const range = await report('burndown/?from=2026-11-01&to=2026-11-02&as_of=2026-11-02T12:00:00Z');
    expect(
      range.days.map((d: { remaining_tasks: number; added_tasks: number }) => [d.remaining_tasks, d.added_tasks]),
    ).toEqual([
      [3, 3],
      [3, 0],
    ]);
  });

  it('flow: counts per status per day, the renamed status as one series, and the hours each task spent', async () => {
    const data = await report('flow/?from=2026-11-01&to=2026-11-06');
    expect(data.statuses).toEqual([
      { name: 'To Do', category: 'todo' },
      { name: 'Doing', category: 'in_progress' },
      { name: 'In Review', category: 'in_progress' },
      { name: 'Done', category: 'done' },
    ]);
    const counts = (todo: number, doing: number, done: number) => ({
      'To Do': todo,
      Doing: doing,
      'In Review': 0,
      Done: done,
    });
    expect(data.days).toEqual([
      { date: '2026-11-01', counts: counts(3, 0, 0) },
      { date: '2026-11-02', counts: counts(2, 1, 0) },
      { date: '2026-11-03', counts: counts(2, 0, 1) },
      { date: '2026-11-04', counts: counts(1, 1, 1) },
      { date: '2026-11-05', counts: counts(1, 1, 1) },
      { date: '2026-11-06', counts: counts(1, 0, 2) },
    ]);
    const byKey = Object.fromEntries(
      data.tasks.map((t: { key: string; hours_in_status: unknown }) => [t.key, t.hours_in_status]),
    );
    expect(byKey['REP-1']).toEqual({ 'To Do': 24, Doing: 24, Done: 86 });
    expect(byKey['REP-2']).toEqual({ 'To Do': 72, Doing: 48, Done: 14 });
    expect(byKey['REP-3']).toEqual({ 'To Do': 134 });
  });

  it('cycle time: percentiles per type and throughput per week', async () => {
    const data = await report('cycle-time/?from=2026-11-01&to=2026-11-07');
    const summary = {
      completed: 2,
      cycle_time_hours: { p50: 24, p85: 48, p95: 48 },
      lead_time_hours: { p50: 48, p85: 120, p95: 120 },
    };
    expect(data.overall).toEqual(summary);
    expect(data.by_type).toEqual([{ task_type: 'Task', ...summary }]);
    expect(data.throughput).toEqual([
      { week_start: '2026-10-26', completed: 0 },
      { week_start: '2026-11-02', completed: 2 },
    ]);
    // As of 11-04, B was not done yet: only A counts.
    const earlier = await report('cycle-time/?from=2026-11-01&to=2026-11-07&as_of=2026-11-04T00:00:00Z');
    expect(earlier.overall.completed).toBe(1);
  });

  it('velocity: committed and completed estimate of completed sprints, as of a time', async () => {
    const data = await report('velocity/');
    expect(data.sprints).toEqual([
      {
        id: sprint,
        name: 'S1',
        start_date: '2026-11-02',
        end_date: '2026-11-06',
        committed_estimate: 8,
        completed_estimate: 11,
        completed_tasks: 2,
      },
    ]);
    expect(data.average_completed_estimate).toBe(11);
    const before = await report('velocity/?as_of=2026-11-05T00:00:00Z');
    expect(before).toMatchObject({ sprints: [], average_completed_estimate: null });
  });

  it('CSV with ?format=csv or Accept: text/csv; 404 for who cannot see the project; bad ranges are 400', async () => {
    const csv = await h.request('GET', `/api/v1/projects/REP/reports/burndown/?sprint=${sprint}&format=csv`, {
      token: admin.token,
    });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.text.split('\r\n').slice(0, 3)).toEqual([
      'date,remaining_estimate,remaining_tasks,added_tasks,added_estimate,removed_tasks,removed_estimate,ideal_estimate',
      '2026-11-02,8,2,0,0,0,0,8',
      '2026-11-03,7,2,1,2,0,0,6',
    ]);
    const flow = await h.request('GET', '/api/v1/projects/REP/reports/flow/?from=2026-11-05&to=2026-11-06', {
      token: admin.token,
      headers: { accept: 'text/csv' },
    });
    expect(flow.text).toBe('date,To Do,Doing,In Review,Done\r\n2026-11-05,1,1,0,1\r\n2026-11-06,1,0,0,2\r\n');
    for (const path of ['velocity/', 'flow/?from=2026-11-01&to=2026-11-02', `burndown/?sprint=${sprint}`]) {
      const res = await h.request('GET', `/api/v1/projects/REP/reports/${path}`, { token: stranger.token });
      expect(res.status).toBe(404);
    }
    const backwards = await h.request('GET', '/api/v1/projects/REP/reports/flow/?from=2026-11-05&to=2026-11-01', {
      token: admin.token,
    });
    expect(backwards.status).toBe(400);
    expect((await h.request('GET', '/api/v1/projects/REP/reports/burndown/', { token: admin.token })).status).toBe(400);
  });
});
