import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { insertTask, setStatusOfAllTasks, taskRows } from '../helpers/factory.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('statuses', () => {
  let h: TestHarness;
  let admin: Actor;
  let project: Json;

  const statusesOf = async (projectId: number, token = admin.token) =>
    (await h.request('GET', `/api/v1/statuses/?project=${projectId}`, { token })).body.data as Json[];
  const create = (body: unknown, token = admin.token) => h.request('POST', '/api/v1/statuses/', { token, body });

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    project = await h.project(admin, 'FLOW');
  });
  afterAll(() => h.close());

  it('a new project reads back its default statuses in board order', async () => {
    const res = await h.request('GET', `/api/v1/statuses/?project=${project.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ count: 4, limit: 50, offset: 0 });
    expect(res.body.data.map((s: Json) => [s.name, s.category, s.position, s.is_default])).toEqual([
      ['To Do', 'todo', 0, true],
      ['In Progress', 'in_progress', 1, false],
      ['In Review', 'in_progress', 2, false],
      ['Done', 'done', 3, false],
    ]);
    expect(Object.keys(res.body.data[0]).sort()).toEqual([
      'category',
      'created_at',
      'id',
      'is_default',
      'name',
      'position',
      'project',
      'updated_at',
    ]);
    expect(res.body.data[0].project).toBe(project.id);
    expect(res.body.data[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('without a filter lists the statuses of every visible project, by project then position; category filters', async () => {
    const second = await h.project(admin, 'FLOWB');
    const stranger = await h.actor();
    await h.project(stranger, 'HIDDEN');
    const all = await h.request('GET', '/api/v1/statuses/?limit=200', { token: admin.token });
    const projects = all.body.data.map((s: Json) => s.project);
    expect(new Set(projects)).toEqual(new Set([project.id, second.id]));
    expect(projects).toEqual([...projects].sort((a: number, b: number) => a - b));
    const firstProject = all.body.data.filter((s: Json) => s.project === project.id).map((s: Json) => s.position);
    expect(firstProject).toEqual([...firstProject].sort((a: number, b: number) => a - b));

    const done = await h.request('GET', `/api/v1/statuses/?category=done`, { token: admin.token });
    expect(done.body.data.map((s: Json) => s.name)).toEqual(['Done', 'Done']);
    const bad = await h.request('GET', `/api/v1/statuses/?category=closed`, { token: admin.token });
    expect(bad.status).toBe(400);

    const byName = await h.request('GET', `/api/v1/statuses/?project=${project.id}&ordering=-name`, {
      token: admin.token,
    });
    expect(byName.body.data.map((s: Json) => s.name)).toEqual(['To Do', 'In Review', 'In Progress', 'Done']);
  });

  it('walks statuses once in cursor mode', async () => {
    const seen: number[] = [];
    let cursor = '';
    for (;;) {
      const res = await h.request('GET', `/api/v1/statuses/?project=${project.id}&cursor=${cursor}&limit=3`, {
        token: admin.token,
      });
      seen.push(...res.body.data.map((s: Json) => s.id));
      if (!res.body.pagination.has_more) break;
      cursor = res.body.pagination.next_cursor;
    }
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.length).toBe((await statusesOf(project.id)).length);
  });

  it('statuses of a project the caller cannot see are 404 and never listed', async () => {
    const stranger = await h.actor();
    const [status] = await statusesOf(project.id);
    expect((await h.request('GET', `/api/v1/statuses/${status.id}/`, { token: stranger.token })).status).toBe(404);
    expect(
      (await h.request('PUT', `/api/v1/statuses/${status.id}/`, { token: stranger.token, body: { name: 'x' } })).status,
    ).toBe(404);
    expect((await h.request('DELETE', `/api/v1/statuses/${status.id}/`, { token: stranger.token })).status).toBe(404);
    const create404 = await create({ project: project.id, name: 'Sneaky', category: 'todo' }, stranger.token);
    expect(create404.status).toBe(404);
    expect(create404.body.error.code).toBe('NOT_FOUND');
    const reorder = await h.request('POST', '/api/v1/statuses/reorder/', {
      token: stranger.token,
      body: { project: project.id, statuses: [status.id] },
    });
    expect(reorder.status).toBe(404);
    const listed = await h.request('GET', `/api/v1/statuses/?project=${project.id}`, { token: stranger.token });
    expect(listed.body.data).toEqual([]);

    const restricted = await h.tokenFor(admin.accountId, ['workflows:read'], ['FLOWB']);
    expect((await h.request('GET', `/api/v1/statuses/${status.id}/`, { token: restricted.token })).status).toBe(404);
  });

  it('only project admins change statuses: members and viewers get 403 FORBIDDEN but can read', async () => {
    const [todo] = await statusesOf(project.id);
    for (const role of ['member', 'viewer'] as const) {
      const actor = await h.actor({ org: admin.org, role: 'member' });
      await h.addMember('FLOW', actor.accountId, role);
      expect((await h.request('GET', `/api/v1/statuses/${todo.id}/`, { token: actor.token })).status).toBe(200);
      const attempts = [
        await create({ project: project.id, name: `By ${role}`, category: 'todo' }, actor.token),
        await h.request('PUT', `/api/v1/statuses/${todo.id}/`, { token: actor.token, body: { name: 'Renamed' } }),
        await h.request('DELETE', `/api/v1/statuses/${todo.id}/`, { token: actor.token }),
        await h.request('POST', '/api/v1/statuses/reorder/', {
          token: actor.token,
          body: { project: project.id, statuses: (await statusesOf(project.id)).map((s) => s.id) },
        }),
      ];
      for (const res of attempts) {
        expect(res.status, role).toBe(403);
        expect(res.body.error.code).toBe('FORBIDDEN');
      }
    }
    expect((await statusesOf(project.id)).map((s) => s.name)).toEqual(['To Do', 'In Progress', 'In Review', 'Done']);
  });

  it('creates a status at the end, or at a position that moves later statuses right', async () => {
    const p = await h.project(admin, 'POS');
    const appended = await create({ project: p.id, name: 'Blocked', category: 'in_progress' });
    expect(appended.status).toBe(201);
    expect(appended.body.data).toMatchObject({
      project: p.id,
      name: 'Blocked',
      category: 'in_progress',
      position: 4,
      is_default: false,
    });

    const inserted = await create({ project: p.id, name: 'Triage', category: 'todo', position: 0 });
    expect(inserted.body.data.position).toBe(0);
    const beyond = await create({ project: p.id, name: 'Archived', category: 'done', position: 99 });
    expect(beyond.body.data.position).toBe(6);
    expect((await statusesOf(p.id)).map((s) => [s.name, s.position])).toEqual([
      ['Triage', 0],
      ['To Do', 1],
      ['In Progress', 2],
      ['In Review', 3],
      ['Done', 4],
      ['Blocked', 5],
      ['Archived', 6],
    ]);
  });

  it('concurrent creates still leave one status per board position', async () => {
    const p = await h.project(admin, 'CONC');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        create({ project: p.id, name: `Lane ${i}`, category: 'in_progress', position: 1 }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect((await statusesOf(p.id)).map((s) => s.position)).toEqual([...Array(10).keys()]);
  });

  it('status names are unique per project (409 ALREADY_EXISTS) and validated', async () => {
    const dup = await create({ project: project.id, name: 'Done', category: 'done' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'ALREADY_EXISTS', details: { field: 'name' } });

    const other = await h.project(admin, 'UNIQ');
    expect((await create({ project: other.id, name: 'Shipped', category: 'done' })).status).toBe(201);
    expect((await create({ project: project.id, name: 'Shipped', category: 'done' })).status).toBe(201);

    for (const body of [
      { project: project.id, name: ' padded', category: 'todo' },
      { project: project.id, name: '', category: 'todo' },
      { project: project.id, name: 'X', category: 'closed' },
      { project: project.id, name: 'X' },
      { project: project.id, name: 'X', category: 'todo', position: -1 },
      { project: String(project.id), name: 'X', category: 'todo' },
      { project: project.id, name: 'X', category: 'todo', colour: 'red' },
    ]) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('PUT renames or recategorizes; omitted fields keep their values; a taken name is 409', async () => {
    const p = await h.project(admin, 'REN');
    const [todo, , review] = await statusesOf(p.id);
    h.clock.advance(1000);
    const renamed = await h.request('PUT', `/api/v1/statuses/${review.id}/`, {
      token: admin.token,
      body: { name: 'Code Review' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({
      id: review.id,
      name: 'Code Review',
      category: 'in_progress',
      position: 2,
    });
    expect(renamed.body.data.updated_at > review.updated_at).toBe(true);

    const recat = await h.request('PUT', `/api/v1/statuses/${review.id}/`, {
      token: admin.token,
      body: { category: 'done' },
    });
    expect(recat.body.data).toMatchObject({ name: 'Code Review', category: 'done' });

    const same = await h.request('PUT', `/api/v1/statuses/${review.id}/`, { token: admin.token, body: {} });
    expect(same.body.data).toEqual(recat.body.data);

    const taken = await h.request('PUT', `/api/v1/statuses/${todo.id}/`, {
      token: admin.token,
      body: { name: 'Done' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('ALREADY_EXISTS');

    const transitions = await h.request('GET', `/api/v1/transitions/?workflow=${p.workflow}&limit=200`, {
      token: admin.token,
    });
    expect(
      transitions.body.data.some((t: Json) => t.to_status === review.id && t.to_status_name === 'Code Review'),
    ).toBe(true);
  });

  it('a status that tasks reference cannot be deleted (409 STATUS_IN_USE), nothing cascades', async () => {
    const p = await h.project(admin, 'INUSE');
    const [todo, progress] = await statusesOf(p.id);
    const a = await insertTask(h, p.id, { status_id: progress.id });
    await insertTask(h, p.id, { status_id: progress.id });
    const before = await taskRows(h, p.id);
    const transitionsBefore = await h.request('GET', `/api/v1/transitions/?workflow=${p.workflow}&limit=200`, {
      token: admin.token,
    });

    const res = await h.request('DELETE', `/api/v1/statuses/${progress.id}/`, { token: admin.token });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'STATUS_IN_USE', details: { task_count: 2 } });
    expect((await h.request('GET', `/api/v1/statuses/${progress.id}/`, { token: admin.token })).status).toBe(200);
    expect(await taskRows(h, p.id)).toEqual(before);
    const transitionsAfter = await h.request('GET', `/api/v1/transitions/?workflow=${p.workflow}&limit=200`, {
      token: admin.token,
    });
    expect(transitionsAfter.body.data).toEqual(transitionsBefore.body.data);

    // Once the tasks have moved on, the delete goes through.
    await setStatusOfAllTasks(h, p.id, todo.id);
    expect((await h.request('DELETE', `/api/v1/statuses/${progress.id}/`, { token: admin.token })).status).toBe(204);
    expect((await h.request('GET', `/api/v1/statuses/${progress.id}/`, { token: admin.token })).status).toBe(404);
    expect((await taskRows(h, p.id)).map((t) => t.id)).toContain(a);
  });

  // PostgreSQL only: SQLite runs one transaction at a time, so the race cannot happen there.
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'deleting a status in use, under a race: a task moved in during the delete still makes it 409, never 500',
    async () => {
      const p = await h.project(admin, 'RACE');
      const [, , review] = await statusesOf(p.id);
      const taskId = await insertTask(h, p.id);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let moved!: () => void;
      const taskMoved = new Promise<void>((resolve) => (moved = resolve));
      // A concurrent writer moves a task into the status and keeps its transaction open.
      const writer = h.ctx.db.transaction().execute(async (trx) => {
        await trx.updateTable('tasks').set({ status_id: review.id }).where('id', '=', taskId).execute();
        moved();
        await gate;
      });
      await taskMoved;

      const deletion = h.request('DELETE', `/api/v1/statuses/${review.id}/`, { token: admin.token });
      // The delete counts no committed task, then waits on the writer's lock on the status; let the writer commit then.
      let blocked = false;
      for (let attempt = 0; attempt < 2000 && !blocked; attempt++) {
        const waiting = await h.ctx.db
          .selectFrom(sql<{ query: string; wait_event_type: string | null }>`pg_stat_activity`.as('a'))
          .select('a.query')
          .where('a.wait_event_type', '=', 'Lock')
          .where('a.query', 'like', 'delete from "statuses"%')
          .execute();
        blocked = waiting.length > 0;
      }
      release();
      await writer;
      expect(blocked).toBe(true);

      const res = await deletion;
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'STATUS_IN_USE', details: { task_count: 1 } });
      expect((await h.request('GET', `/api/v1/statuses/${review.id}/`, { token: admin.token })).status).toBe(200);
    },
  );

  it('deleting an unreferenced status drops its transitions in every workflow and closes the board gap', async () => {
    const p = await h.project(admin, 'DROP');
    const [todo, progress, review, done] = await statusesOf(p.id);
    const spare = await h.request('POST', '/api/v1/workflows/', {
      token: admin.token,
      body: { project: p.id, name: 'Spare' },
    });
    await h.request('POST', '/api/v1/transitions/', {
      token: admin.token,
      body: { workflow: spare.body.data.id, from_status: review.id, to_status: todo.id },
    });

    expect((await h.request('DELETE', `/api/v1/statuses/${review.id}/`, { token: admin.token })).status).toBe(204);
    const transitions = await h.request('GET', `/api/v1/transitions/?limit=200`, { token: admin.token });
    const ofProject = transitions.body.data.filter((t: Json) => [p.workflow, spare.body.data.id].includes(t.workflow));
    expect(ofProject.length).toBeGreaterThan(0);
    expect(ofProject.some((t: Json) => t.from_status === review.id || t.to_status === review.id)).toBe(false);
    expect((await statusesOf(p.id)).map((s) => [s.id, s.position])).toEqual([
      [todo.id, 0],
      [progress.id, 1],
      [done.id, 2],
    ]);
  });

  it("the project's default status cannot be deleted (409 STATUS_IS_DEFAULT)", async () => {
    const p = await h.project(admin, 'DFLT');
    const [todo, progress] = await statusesOf(p.id);
    const res = await h.request('DELETE', `/api/v1/statuses/${todo.id}/`, { token: admin.token });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'STATUS_IS_DEFAULT', details: { status: todo.id } });

    await h.request('PATCH', `/api/v1/projects/${p.id}/`, {
      token: admin.token,
      body: { default_status: 'In Progress' },
    });
    const after = await statusesOf(p.id);
    expect(after.find((s) => s.id === progress.id).is_default).toBe(true);
    expect((await h.request('DELETE', `/api/v1/statuses/${todo.id}/`, { token: admin.token })).status).toBe(204);
  });

  it('reorder changes board order only, never any task', async () => {
    const p = await h.project(admin, 'ORDER');
    const [todo, progress, review, done] = await statusesOf(p.id);
    await insertTask(h, p.id, { status_id: todo.id });
    await insertTask(h, p.id, { status_id: progress.id });
    await insertTask(h, p.id, { status_id: done.id });
    const tasksBefore = await taskRows(h, p.id);

    h.clock.advance(5000);
    const order = [done.id, review.id, todo.id, progress.id];
    const res = await h.request('POST', '/api/v1/statuses/reorder/', {
      token: admin.token,
      body: { project: p.id, statuses: order },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: Json) => [s.id, s.position])).toEqual(order.map((id, i) => [id, i]));
    expect(res.body.data.map((s: Json) => s.name)).toEqual(['Done', 'In Review', 'To Do', 'In Progress']);
    // Names, categories and the default are untouched; only moved statuses count as updated.
    expect(res.body.data.find((s: Json) => s.id === todo.id)).toMatchObject({
      name: 'To Do',
      category: 'todo',
      is_default: true,
    });

    expect(await taskRows(h, p.id)).toEqual(tasksBefore);
    expect((await statusesOf(p.id)).map((s) => s.id)).toEqual(order);
  });

  it('reorder must name every status of the project exactly once', async () => {
    const p = await h.project(admin, 'ORD');
    const other = await h.project(admin, 'ORDX');
    const ids = (await statusesOf(p.id)).map((s) => s.id);
    const foreign = (await statusesOf(other.id))[0].id;
    const reorder = (statuses: unknown) =>
      h.request('POST', '/api/v1/statuses/reorder/', { token: admin.token, body: { project: p.id, statuses } });

    const missing = await reorder(ids.slice(1));
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { missing: [ids[0]], unknown: [] } });
    expect(missing.body.error.details.fields).toHaveProperty('statuses');

    const unknown = await reorder([...ids, foreign]);
    expect(unknown.body.error.details).toMatchObject({ missing: [], unknown: [foreign] });

    const repeated = await reorder([...ids, ids[0]]);
    expect(repeated.status).toBe(400);

    expect((await statusesOf(p.id)).map((s) => s.id)).toEqual(ids);
  });

  it('reads of a single status, and unknown ids, behave', async () => {
    const [todo] = await statusesOf(project.id);
    const res = await h.request('GET', `/api/v1/statuses/${todo.id}/`, { token: admin.token });
    expect(res.body.data).toEqual(todo);
    expect((await h.request('GET', '/api/v1/statuses/999999/', { token: admin.token })).status).toBe(404);
    expect((await h.request('GET', '/api/v1/statuses/abc/', { token: admin.token })).status).toBe(400);
  });
});
