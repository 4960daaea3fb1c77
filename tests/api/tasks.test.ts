import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { addLabel, addMilestone, addSprint, changesFor, createTask, eventsFor } from '../helpers/factory.ts';

describe('tasks: create, read, update, delete', () => {
  let h: TestHarness;
  let admin: Actor;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    await h.project(admin, 'WEB');
    await h.project(admin, 'OPS');
  });
  afterAll(() => h.close());

  it('creates a task with project defaults and returns the full task JSON, an ETag and 201', async () => {
    const res = await h.request('POST', '/api/v1/projects/WEB/tasks/', {
      token: admin.token,
      body: { title: 'First' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      key: 'WEB-1',
      project: 'WEB',
      title: 'First',
      description: '',
      task_type: 'Task',
      priority: 'Medium',
      status: 'To Do',
      status_category: 'todo',
      assignee: null,
      parent: null,
      due_date: null,
      start_date: null,
      estimate: null,
      labels: [],
      milestone: null,
      sprint: null,
      custom_fields: {},
      time_spent_minutes: 0,
      rollup: null,
      created_by: admin.accountId,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      updated_at: res.body.data.created_at,
    });
    expect(res.headers.etag).toBe('"v1"');
  });

  it('accepts every create field, sorts labels by name', async () => {
    await addLabel(h, 'WEB', 'ux');
    await addLabel(h, 'WEB', 'backend');
    const milestone = await addMilestone(h, 'WEB', 'v1');
    const sprint = await addSprint(h, 'WEB', 'S1');
    const task = await createTask(h, admin, 'WEB', {
      title: 'Full',
      description: 'Body',
      task_type: 'Bug',
      priority: 'High',
      assignee: admin.accountId,
      due_date: '2026-12-24',
      labels: ['ux', 'backend'],
      milestone,
      sprint,
    });
    expect(task).toMatchObject({
      title: 'Full',
      description: 'Body',
      task_type: 'Bug',
      priority: 'High',
      assignee: admin.accountId,
      due_date: '2026-12-24',
      labels: ['backend', 'ux'],
      milestone,
      sprint,
    });
    const read = await h.request('GET', `/api/v1/tasks/${task.key}/`, { token: admin.token });
    expect(read.body.data).toEqual(task);
  });

  it('unknown task type, priority, label, milestone or sprint is a 400 naming each field', async () => {
    const otherMilestone = await addMilestone(h, 'OPS', 'elsewhere');
    const res = await h.request('POST', '/api/v1/projects/WEB/tasks/', {
      token: admin.token,
      body: {
        title: 'x',
        task_type: 'Saga',
        priority: 'Meh',
        labels: ['nope'],
        milestone: otherMilestone,
        sprint: 999999,
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details.fields).sort()).toEqual([
      'labels',
      'milestone',
      'priority',
      'sprint',
      'task_type',
    ]);
  });

  it('bodies are strict: no status on create, title required 1..500 and not blank, description ≤ 64 KiB, real dates', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: 'x', status: 'Done' }, 'status'],
      [{}, 'title'],
      [{ title: '' }, 'title'],
      [{ title: '   ' }, 'title'],
      [{ title: 'x'.repeat(501) }, 'title'],
      [{ title: 'x', description: 'd'.repeat(65537) }, 'description'],
      [{ title: 'x', due_date: '2026-02-30' }, 'due_date'],
      [{ title: 'x', assignee: '5' }, 'assignee'],
      [{ title: 'x', labels: ['a', 'a'] }, 'labels'],
      [{ title: 'x', parent: 'web-1' }, 'parent'],
    ];
    for (const [body, field] of cases) {
      const res = await h.request('POST', '/api/v1/projects/WEB/tasks/', { token: admin.token, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.details.fields).toHaveProperty(field);
    }
    expect(
      (await h.request('POST', '/api/v1/projects/WEB/tasks/', { token: admin.token, body: { title: 'x'.repeat(500) } }))
        .status,
    ).toBe(201);
  });

  it('the assignee must be a member of the project', async () => {
    const stranger = await h.actor({ org: admin.org });
    const res = await h.request('POST', '/api/v1/projects/WEB/tasks/', {
      token: admin.token,
      body: { title: 'x', assignee: stranger.accountId },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields.assignee).toMatch(/not a member/);
  });

  it('50 concurrent creates get 50 distinct consecutive keys', async () => {
    await h.project(admin, 'RACE');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        h.request('POST', '/api/v1/projects/RACE/tasks/', { token: admin.token, body: { title: `t${i}` } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    const numbers = results.map((r) => Number(r.body.data.key.split('-')[1])).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it("a deleted task's key is never reused; the next create takes the next number", async () => {
    await h.project(admin, 'DEL');
    await createTask(h, admin, 'DEL');
    const second = await createTask(h, admin, 'DEL');
    expect(second.key).toBe('DEL-2');
    expect((await h.request('DELETE', '/api/v1/tasks/DEL-2/', { token: admin.token })).status).toBe(204);
    expect((await h.request('GET', '/api/v1/tasks/DEL-2/', { token: admin.token })).status).toBe(404);
    expect((await createTask(h, admin, 'DEL')).key).toBe('DEL-3');
  });

  it('a refused create consumes no number', async () => {
    await h.project(admin, 'GAP');
    await h.request('POST', '/api/v1/projects/GAP/tasks/', {
      token: admin.token,
      body: { title: 'x', priority: 'Nope' },
    });
    expect((await createTask(h, admin, 'GAP')).key).toBe('GAP-1');
  });

  it('PUT changes only the fields sent; null clears nullable ones; version and ETag move', async () => {
    const sprint = await addSprint(h, 'WEB', 'S-put');
    const task = await createTask(h, admin, 'WEB', {
      title: 'Put me',
      description: 'keep',
      due_date: '2026-12-01',
      sprint,
      assignee: admin.accountId,
    });
    h.clock.advance(1000);
    const res = await h.request('PUT', `/api/v1/tasks/${task.key}/`, {
      token: admin.token,
      body: { title: 'Renamed', due_date: null, sprint: null },
    });
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe('"v2"');
    expect(res.body.data).toMatchObject({
      title: 'Renamed',
      description: 'keep',
      due_date: null,
      sprint: null,
      assignee: admin.accountId,
    });
    expect(res.body.data.updated_at > task.updated_at).toBe(true);
    expect(res.body.data.created_at).toBe(task.created_at);

    const cleared = await h.request('PUT', `/api/v1/tasks/${task.key}/`, {
      token: admin.token,
      body: { assignee: null },
    });
    expect(cleared.body.data.assignee).toBeNull();
  });

  it('a PUT that changes nothing writes nothing (no version bump, no event, no change record)', async () => {
    const task = await createTask(h, admin, 'WEB', { title: 'Same' });
    const res = await h.request('PUT', `/api/v1/tasks/${task.key}/`, {
      token: admin.token,
      body: { title: 'Same', status: 'To Do' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe('"v1"');
    expect(res.body.data.updated_at).toBe(task.updated_at);
    expect((await eventsFor(h, task.key)).map((e) => e.type)).toEqual(['task.created']);
    expect(await changesFor(h, task.key)).toHaveLength(1);
  });

  it('If-Match: a stale ETag is refused with 412 PRECONDITION_FAILED and nothing changes; the current one (or *) passes', async () => {
    const task = await createTask(h, admin, 'WEB', { title: 'Etag' });
    const first = await h.request('GET', `/api/v1/tasks/${task.key}/`, { token: admin.token });
    const etag = first.headers.etag as string;
    const ok = await h.request('PUT', `/api/v1/tasks/${task.key}/`, {
      token: admin.token,
      headers: { 'if-match': etag },
      body: { title: 'One' },
    });
    expect(ok.status).toBe(200);

    const stale = await h.request('PUT', `/api/v1/tasks/${task.key}/`, {
      token: admin.token,
      headers: { 'if-match': etag },
      body: { title: 'Two' },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatchObject({ code: 'PRECONDITION_FAILED', details: { etag: ok.headers.etag } });
    const after = await h.request('GET', `/api/v1/tasks/${task.key}/`, { token: admin.token });
    expect(after.body.data).toEqual(ok.body.data);
    expect(await changesFor(h, task.key)).toHaveLength(2);

    expect(
      (await h.request('DELETE', `/api/v1/tasks/${task.key}/`, { token: admin.token, headers: { 'if-match': etag } }))
        .status,
    ).toBe(412);
    const star = await h.request('PUT', `/api/v1/tasks/${task.key}/`, {
      token: admin.token,
      headers: { 'if-match': '*' },
      body: { title: 'Three' },
    });
    expect(star.status).toBe(200);
    const list = await h.request('PUT', `/api/v1/tasks/${task.key}/`, {
      token: admin.token,
      headers: { 'if-match': `"v1", W/${star.headers.etag}` },
      body: { title: 'Four' },
    });
    expect(list.status).toBe(200);
  });

  it('concurrent PUTs on one task lose no update: every change is recorded and the version counts them all', async () => {
    const task = await createTask(h, admin, 'WEB', { title: 'Busy' });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        h.request('PUT', `/api/v1/tasks/${task.key}/`, { token: admin.token, body: { description: `d${i}` } }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => r.headers.etag)).size).toBe(10);
    const final = await h.request('GET', `/api/v1/tasks/${task.key}/`, { token: admin.token });
    expect(final.headers.etag).toBe('"v11"');
    const changes = await changesFor(h, task.key);
    expect(changes).toHaveLength(11);
    expect(changes.at(-1)!.task.description).toBe(final.body.data.description);
  });

  it('labels are replaced as a set by PUT; unknown ones are a 400 and change nothing', async () => {
    await addLabel(h, 'WEB', 'frontend');
    const task = await createTask(h, admin, 'WEB', { labels: ['ux'] });
    const res = await h.request('PUT', `/api/v1/tasks/${task.key}/`, {
      token: admin.token,
      body: { labels: ['frontend', 'backend'] },
    });
    expect(res.body.data.labels).toEqual(['backend', 'frontend']);
    const bad = await h.request('PUT', `/api/v1/tasks/${task.key}/`, {
      token: admin.token,
      body: { labels: ['frontend', 'ghost'], title: 'changed' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields).toEqual({ labels: 'not labels of this project: "ghost"' });
    expect((await h.request('GET', `/api/v1/tasks/${task.key}/`, { token: admin.token })).body.data).toMatchObject({
      title: task.title,
      labels: ['backend', 'frontend'],
    });
  });

  it('a malformed key in the path is a 400; an unknown one 404', async () => {
    expect((await h.request('GET', '/api/v1/tasks/web-1/', { token: admin.token })).status).toBe(400);
    expect((await h.request('GET', '/api/v1/tasks/WEB-0/', { token: admin.token })).status).toBe(400);
    expect((await h.request('GET', '/api/v1/tasks/WEB-999999/', { token: admin.token })).status).toBe(404);
    expect(
      (await h.request('POST', '/api/v1/projects/NOPE/tasks/', { token: admin.token, body: { title: 'x' } })).status,
    ).toBe(404);
  });

  it('a project viewer reads but every write is 403 FORBIDDEN and changes nothing (following excepted)', async () => {
    await h.project(admin, 'VIEW');
    const task = await createTask(h, admin, 'VIEW');
    const viewer = await h.actor({ org: admin.org, role: 'member' });
    await h.addMember('VIEW', viewer.accountId, 'viewer');
    const t = viewer.token;
    expect((await h.request('GET', `/api/v1/tasks/${task.key}/`, { token: t })).status).toBe(200);
    expect((await h.request('GET', '/api/v1/projects/VIEW/tasks/', { token: t })).status).toBe(200);
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/api/v1/projects/VIEW/tasks/', { title: 'x' }],
      ['POST', '/api/v1/projects/VIEW/tasks/bulk/', { tasks: [{ title: 'x' }] }],
      ['POST', '/api/v1/projects/VIEW/tasks/bulk-update/', { tasks: [{ key: task.key, title: 'x' }] }],
      ['PUT', `/api/v1/tasks/${task.key}/`, { title: 'x' }],
      ['DELETE', `/api/v1/tasks/${task.key}/`, undefined],
      ['POST', `/api/v1/tasks/${task.key}/assign/`, { assignee: null }],
      ['POST', `/api/v1/tasks/${task.key}/subtasks/`, { title: 'x' }],
    ];
    for (const [method, url, body] of writes) {
      const res = await h.request(method as 'POST', url, { token: t, body });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    expect((await h.request('GET', `/api/v1/tasks/${task.key}/`, { token: t })).body.data).toEqual(task);
    expect((await h.request('POST', `/api/v1/tasks/${task.key}/follow/`, { token: t })).status).toBe(200);
  });

  it('a task in a project the token cannot see is 404 on every route, including for restricted tokens', async () => {
    const task = await createTask(h, admin, 'OPS');
    const restricted = await h.tokenFor(admin.accountId, ['tasks:write'], ['WEB']);
    const outsider = await h.actor();
    for (const token of [restricted.token, outsider.token]) {
      const routes: Array<[string, string, unknown]> = [
        ['GET', `/api/v1/tasks/${task.key}/`, undefined],
        ['PUT', `/api/v1/tasks/${task.key}/`, { title: 'x' }],
        ['DELETE', `/api/v1/tasks/${task.key}/`, undefined],
        ['GET', `/api/v1/tasks/${task.key}/activities/`, undefined],
        ['POST', `/api/v1/tasks/${task.key}/assign/`, { assignee: null }],
        ['POST', `/api/v1/tasks/${task.key}/follow/`, undefined],
        ['DELETE', `/api/v1/tasks/${task.key}/follow/`, undefined],
        ['GET', `/api/v1/tasks/${task.key}/followers/`, undefined],
        ['GET', `/api/v1/tasks/${task.key}/subtasks/`, undefined],
        ['POST', `/api/v1/tasks/${task.key}/subtasks/`, { title: 'x' }],
        ['GET', '/api/v1/projects/OPS/tasks/', undefined],
        ['POST', '/api/v1/projects/OPS/tasks/', { title: 'x' }],
        ['POST', '/api/v1/projects/OPS/tasks/bulk/', { tasks: [{ title: 'x' }] }],
        ['POST', '/api/v1/projects/OPS/tasks/bulk-update/', { tasks: [{ key: task.key, title: 'x' }] }],
      ];
      for (const [method, url, body] of routes) {
        const res = await h.request(method as 'GET', url, { token, body });
        expect(res.status, `${method} ${url}`).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
    }
    expect((await h.request('GET', `/api/v1/tasks/${task.key}/`, { token: admin.token })).body.data.title).toBe(
      task.title,
    );
  });

  it('reading needs tasks:read and writing tasks:write', async () => {
    const task = await createTask(h, admin, 'WEB');
    const reader = await h.tokenFor(admin.accountId, ['tasks:read']);
    expect((await h.request('GET', `/api/v1/tasks/${task.key}/`, { token: reader.token })).status).toBe(200);
    const res = await h.request('PUT', `/api/v1/tasks/${task.key}/`, { token: reader.token, body: { title: 'x' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required: 'tasks:write' } });
  });
});
