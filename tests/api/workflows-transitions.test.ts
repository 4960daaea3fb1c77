import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRANSITIONS } from '../../src/modules/workflows/defaults.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('transitions and workflows', () => {
  let h: TestHarness;
  let admin: Actor;

  const get = (url: string, token = admin.token) => h.request('GET', url, { token });
  const post = (url: string, body: unknown, token = admin.token) => h.request('POST', url, { token, body });
  const put = (url: string, body: unknown, token = admin.token) => h.request('PUT', url, { token, body });
  const del = (url: string, token = admin.token) => h.request('DELETE', url, { token });
  const statusIds = async (projectId: number) =>
    Object.fromEntries(
      (await get(`/api/v1/statuses/?project=${projectId}`)).body.data.map((s: Json) => [s.name, s.id]),
    ) as Record<string, number>;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
  });
  afterAll(() => h.close());

  it('a new project reads back one active default workflow and its transitions', async () => {
    const p = await h.project(admin, 'DEF');
    const workflows = await get(`/api/v1/workflows/?project=${p.id}`);
    expect(workflows.status).toBe(200);
    expect(workflows.body.data).toHaveLength(1);
    const wf = workflows.body.data[0];
    expect(wf).toMatchObject({
      id: p.workflow,
      project: p.id,
      name: 'Default workflow',
      description: '',
      active: true,
    });
    expect(Object.keys(wf).sort()).toEqual([
      'active',
      'created_at',
      'description',
      'id',
      'name',
      'project',
      'transitions',
      'updated_at',
    ]);
    expect(wf.transitions.map((t: Json) => [t.from_status_name, t.to_status_name])).toEqual(DEFAULT_TRANSITIONS);

    const transitions = await get(`/api/v1/transitions/?workflow=${p.workflow}`);
    expect(transitions.body.pagination.count).toBe(DEFAULT_TRANSITIONS.length);
    const ids = await statusIds(p.id);
    expect(transitions.body.data[0]).toEqual({
      id: wf.transitions[0].id,
      workflow: p.workflow,
      from_status: ids['To Do'],
      to_status: ids['In Progress'],
      from_status_name: 'To Do',
      to_status_name: 'In Progress',
      name: 'To Do → In Progress',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(wf.transitions[0]).toEqual({
      id: transitions.body.data[0].id,
      from_status: ids['To Do'],
      to_status: ids['In Progress'],
      from_status_name: 'To Do',
      to_status_name: 'In Progress',
      name: 'To Do → In Progress',
    });
  });

  it("creates a transition between two statuses of the workflow's project", async () => {
    const p = await h.project(admin, 'ADD');
    const ids = await statusIds(p.id);
    const wfBefore = (await get(`/api/v1/workflows/${p.workflow}/`)).body.data;
    h.clock.advance(1000);

    const created = await post('/api/v1/transitions/', {
      workflow: p.workflow,
      from_status: ids['To Do'],
      to_status: ids.Done,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      workflow: p.workflow,
      from_status: ids['To Do'],
      to_status: ids.Done,
      name: 'To Do → Done',
      from_status_name: 'To Do',
      to_status_name: 'Done',
    });
    const named = await post('/api/v1/transitions/', {
      workflow: p.workflow,
      from_status: ids.Done,
      to_status: ids['In Review'],
      name: 'Reopen for review',
    });
    expect(named.body.data.name).toBe('Reopen for review');

    const wf = (await get(`/api/v1/workflows/${p.workflow}/`)).body.data;
    expect(wf.transitions.map((t: Json) => t.id)).toContain(created.body.data.id);
    expect(wf.updated_at > wfBefore.updated_at).toBe(true);
    expect((await get(`/api/v1/transitions/${created.body.data.id}/`)).body.data).toEqual(created.body.data);
  });

  it('refuses a duplicate pair (409 ALREADY_EXISTS), a self-loop and statuses of another project (400)', async () => {
    const p = await h.project(admin, 'BAD');
    const other = await h.project(admin, 'BADX');
    const ids = await statusIds(p.id);
    const foreign = await statusIds(other.id);
    const existing = (await get(`/api/v1/transitions/?workflow=${p.workflow}`)).body.data[0];

    const dup = await post('/api/v1/transitions/', {
      workflow: p.workflow,
      from_status: existing.from_status,
      to_status: existing.to_status,
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({
      code: 'ALREADY_EXISTS',
      details: { field: 'to_status', transition: existing.id },
    });

    const loop = await post('/api/v1/transitions/', {
      workflow: p.workflow,
      from_status: ids.Done,
      to_status: ids.Done,
    });
    expect(loop.status).toBe(400);
    expect(loop.body.error.details.fields).toEqual({ to_status: 'must differ from from_status' });

    const cross = await post('/api/v1/transitions/', {
      workflow: p.workflow,
      from_status: ids.Done,
      to_status: foreign['To Do'],
    });
    expect(cross.status).toBe(400);
    expect(cross.body.error.details.fields).toHaveProperty('to_status');

    const missing = await post('/api/v1/transitions/', { workflow: p.workflow, from_status: ids.Done });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.fields).toHaveProperty('to_status');

    const noWorkflow = await post('/api/v1/transitions/', {
      workflow: 999999,
      from_status: ids.Done,
      to_status: ids['To Do'],
    });
    expect(noWorkflow.status).toBe(404);
  });

  it('PUT changes the pair or the name; a default name follows the pair, a chosen one stays', async () => {
    const p = await h.project(admin, 'EDIT');
    const ids = await statusIds(p.id);
    const t = (
      await post('/api/v1/transitions/', { workflow: p.workflow, from_status: ids['To Do'], to_status: ids.Done })
    ).body.data;

    const moved = await put(`/api/v1/transitions/${t.id}/`, { to_status: ids['In Review'] });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({
      from_status: ids['To Do'],
      to_status: ids['In Review'],
      name: 'To Do → In Review',
      to_status_name: 'In Review',
    });

    const renamed = await put(`/api/v1/transitions/${t.id}/`, { name: 'Fast track' });
    expect(renamed.body.data).toMatchObject({ name: 'Fast track', to_status: ids['In Review'] });
    const movedAgain = await put(`/api/v1/transitions/${t.id}/`, { to_status: ids.Done });
    expect(movedAgain.body.data).toMatchObject({ name: 'Fast track', to_status: ids.Done });

    const unchanged = await put(`/api/v1/transitions/${t.id}/`, {});
    expect(unchanged.body.data).toEqual(movedAgain.body.data);

    const clash = await put(`/api/v1/transitions/${t.id}/`, { from_status: ids['In Progress'] });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('ALREADY_EXISTS');

    const workflowChange = await put(`/api/v1/transitions/${t.id}/`, { workflow: 1 });
    expect(workflowChange.status).toBe(400);
  });

  it('DELETE removes a transition from the workflow', async () => {
    const p = await h.project(admin, 'RM');
    const [first] = (await get(`/api/v1/transitions/?workflow=${p.workflow}`)).body.data;
    expect((await del(`/api/v1/transitions/${first.id}/`)).status).toBe(204);
    expect((await get(`/api/v1/transitions/${first.id}/`)).status).toBe(404);
    const wf = (await get(`/api/v1/workflows/${p.workflow}/`)).body.data;
    expect(wf.transitions.map((t: Json) => t.id)).not.toContain(first.id);
    expect(wf.transitions).toHaveLength(DEFAULT_TRANSITIONS.length - 1);
  });

  it("a second workflow starts inactive and empty; activating it switches the project's workflow", async () => {
    const p = await h.project(admin, 'SWAP');
    const ids = await statusIds(p.id);
    const created = await post('/api/v1/workflows/', { project: p.id, name: 'Strict', description: 'Review required' });
    expect(created.status).toBe(201);
    const strict = created.body.data;
    expect(strict).toMatchObject({
      project: p.id,
      name: 'Strict',
      description: 'Review required',
      active: false,
      transitions: [],
    });

    await post('/api/v1/transitions/', { workflow: strict.id, from_status: ids['To Do'], to_status: ids['In Review'] });
    h.clock.advance(1000);
    const activated = await put(`/api/v1/workflows/${strict.id}/`, { active: true });
    expect(activated.status).toBe(200);
    expect(activated.body.data).toMatchObject({ active: true, name: 'Strict' });
    expect(activated.body.data.transitions).toHaveLength(1);

    const project = (await get(`/api/v1/projects/${p.id}/`)).body.data;
    expect(project.workflow).toBe(strict.id);
    expect(project.updated_at > p.updated_at).toBe(true);
    const previous = (await get(`/api/v1/workflows/${p.workflow}/`)).body.data;
    expect(previous.active).toBe(false);
    expect(previous.updated_at).toBe(activated.body.data.updated_at);
    const all = (await get(`/api/v1/workflows/?project=${p.id}`)).body.data;
    expect(all.filter((w: Json) => w.active).map((w: Json) => w.id)).toEqual([strict.id]);
  });

  it('the active workflow cannot be deactivated or deleted (409 WORKFLOW_IN_USE); an inactive one is deleted with its transitions', async () => {
    const p = await h.project(admin, 'KEEP');
    const ids = await statusIds(p.id);
    const off = await put(`/api/v1/workflows/${p.workflow}/`, { active: false });
    expect(off.status).toBe(409);
    expect(off.body.error.code).toBe('WORKFLOW_IN_USE');
    const gone = await del(`/api/v1/workflows/${p.workflow}/`);
    expect(gone.status).toBe(409);
    expect(gone.body.error.code).toBe('WORKFLOW_IN_USE');

    const spare = (await post('/api/v1/workflows/', { project: p.id, name: 'Spare' })).body.data;
    const noop = await put(`/api/v1/workflows/${spare.id}/`, { active: false, name: 'Spare 2' });
    expect(noop.body.data).toMatchObject({ active: false, name: 'Spare 2' });
    const t = (
      await post('/api/v1/transitions/', { workflow: spare.id, from_status: ids.Done, to_status: ids['To Do'] })
    ).body.data;
    expect((await del(`/api/v1/workflows/${spare.id}/`)).status).toBe(204);
    expect((await get(`/api/v1/workflows/${spare.id}/`)).status).toBe(404);
    expect((await get(`/api/v1/transitions/${t.id}/`)).status).toBe(404);
    expect((await get(`/api/v1/transitions/?workflow=${spare.id}`)).body.data).toEqual([]);
    expect(Object.keys(await statusIds(p.id))).toHaveLength(4);
  });

  it('creating with active: true switches at once; names are unique per project (409 ALREADY_EXISTS)', async () => {
    const p = await h.project(admin, 'NOW');
    const created = await post('/api/v1/workflows/', { project: p.id, name: 'Kanban', active: true });
    expect(created.body.data.active).toBe(true);
    expect((await get(`/api/v1/projects/${p.id}/`)).body.data.workflow).toBe(created.body.data.id);

    const dup = await post('/api/v1/workflows/', { project: p.id, name: 'Kanban' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'ALREADY_EXISTS', details: { field: 'name' } });
    const rename = await put(`/api/v1/workflows/${p.workflow}/`, { name: 'Kanban' });
    expect(rename.status).toBe(409);
    expect((await get(`/api/v1/projects/${p.id}/`)).body.data.workflow).toBe(created.body.data.id);

    const elsewhere = await h.project(admin, 'NOWX');
    expect((await post('/api/v1/workflows/', { project: elsewhere.id, name: 'Kanban' })).status).toBe(201);
  });

  it('lists workflows of every visible project, with transitions, in both pagination modes', async () => {
    const all = await get('/api/v1/workflows/?limit=2');
    expect(all.body.data).toHaveLength(2);
    expect(all.body.pagination.count).toBeGreaterThan(2);
    expect(all.body.data.every((w: Json) => Array.isArray(w.transitions))).toBe(true);
    const cursor = await get('/api/v1/workflows/?cursor=&limit=2');
    expect(cursor.body.pagination).toMatchObject({ limit: 2, has_more: true });
    const byName = await get('/api/v1/workflows/?ordering=-name&limit=200');
    const names = byName.body.data.map((w: Json) => w.name);
    expect(names).toEqual([...names].sort().reverse());
  });

  it('workflows and transitions of invisible projects are 404; members and viewers get 403 on writes', async () => {
    const p = await h.project(admin, 'PRIV');
    const ids = await statusIds(p.id);
    const [t] = (await get(`/api/v1/transitions/?workflow=${p.workflow}`)).body.data;
    const stranger = await h.actor();
    expect((await get(`/api/v1/workflows/${p.workflow}/`, stranger.token)).status).toBe(404);
    expect((await get(`/api/v1/transitions/${t.id}/`, stranger.token)).status).toBe(404);
    expect((await get(`/api/v1/transitions/?workflow=${p.workflow}`, stranger.token)).body.data).toEqual([]);
    expect((await get(`/api/v1/workflows/?project=${p.id}`, stranger.token)).body.data).toEqual([]);
    expect((await post('/api/v1/workflows/', { project: p.id, name: 'Mine' }, stranger.token)).status).toBe(404);
    expect(
      (
        await post(
          '/api/v1/transitions/',
          { workflow: p.workflow, from_status: ids.Done, to_status: ids['In Review'] },
          stranger.token,
        )
      ).status,
    ).toBe(404);
    expect((await put(`/api/v1/workflows/${p.workflow}/`, { name: 'x' }, stranger.token)).status).toBe(404);
    expect((await del(`/api/v1/transitions/${t.id}/`, stranger.token)).status).toBe(404);

    for (const role of ['member', 'viewer'] as const) {
      const actor = await h.actor({ org: admin.org, role: 'member' });
      await h.addMember('PRIV', actor.accountId, role);
      expect((await get(`/api/v1/workflows/${p.workflow}/`, actor.token)).status).toBe(200);
      const writes = [
        await post('/api/v1/workflows/', { project: p.id, name: `By ${role}` }, actor.token),
        await put(`/api/v1/workflows/${p.workflow}/`, { name: 'x' }, actor.token),
        await del(`/api/v1/workflows/${p.workflow}/`, actor.token),
        await post(
          '/api/v1/transitions/',
          { workflow: p.workflow, from_status: ids.Done, to_status: ids['In Review'] },
          actor.token,
        ),
        await put(`/api/v1/transitions/${t.id}/`, { name: 'x' }, actor.token),
        await del(`/api/v1/transitions/${t.id}/`, actor.token),
      ];
      for (const res of writes) {
        expect(res.status, role).toBe(403);
        expect(res.body.error.code).toBe('FORBIDDEN');
      }
    }
  });

  it('a workspace admin who is only a project member administers its workflow', async () => {
    const owner = await h.actor();
    const p = await h.project(owner, 'WSADM');
    const wsAdmin = await h.actor({ org: owner.org, role: 'admin' });
    await h.addMember('WSADM', wsAdmin.accountId, 'member');
    const res = await post('/api/v1/workflows/', { project: p.id, name: 'Ops' }, wsAdmin.token);
    expect(res.status).toBe(201);
  });

  it('workflows:read cannot write; workflows:write implies read', async () => {
    const p = await h.project(admin, 'SCOPE');
    const reader = await h.tokenFor(admin.accountId, ['workflows:read']);
    expect((await get(`/api/v1/workflows/${p.workflow}/`, reader.token)).status).toBe(200);
    const denied = await post('/api/v1/workflows/', { project: p.id, name: 'R' }, reader.token);
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required: 'workflows:write' } });
    const writer = await h.tokenFor(admin.accountId, ['workflows:write']);
    expect((await get(`/api/v1/statuses/?project=${p.id}`, writer.token)).status).toBe(200);
  });
});

describe('priorities and task types', () => {
  let h: TestHarness;
  let admin: Actor;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    await h.project(admin, 'OPT');
  });
  afterAll(() => h.close());

  it("lists a project's priorities and task types in order, flagging the defaults", async () => {
    const priorities = await h.request('GET', '/api/v1/projects/OPT/priorities/', { token: admin.token });
    expect(priorities.status).toBe(200);
    expect(priorities.body.data.map((p: Json) => [p.name, p.position, p.is_default])).toEqual([
      ['Low', 0, false],
      ['Medium', 1, true],
      ['High', 2, false],
      ['Urgent', 3, false],
    ]);
    expect(Object.keys(priorities.body.data[0]).sort()).toEqual(['id', 'is_default', 'name', 'position']);
    expect(priorities.body.pagination).toEqual({ count: 4, limit: 50, offset: 0 });

    const types = await h.request('GET', '/api/v1/projects/OPT/task-types/', { token: admin.token });
    expect(types.body.data.map((t: Json) => [t.name, t.is_default])).toEqual([
      ['Task', true],
      ['Bug', false],
      ['Story', false],
      ['Epic', false],
    ]);
  });

  it('follows a changed project default', async () => {
    const p = (await h.request('GET', '/api/v1/projects/', { token: admin.token })).body.data.find(
      (x: Json) => x.key === 'OPT',
    );
    await h.request('PATCH', `/api/v1/projects/${p.id}/`, { token: admin.token, body: { default_priority: 'High' } });
    const priorities = await h.request('GET', '/api/v1/projects/OPT/priorities/?ordering=-position', {
      token: admin.token,
    });
    expect(priorities.body.data.map((x: Json) => [x.name, x.is_default])).toEqual([
      ['Urgent', false],
      ['High', true],
      ['Medium', false],
      ['Low', false],
    ]);
  });

  it('an invisible or unknown project is 404, a malformed key 400; tasks:read is required', async () => {
    const stranger = await h.actor();
    for (const path of ['priorities', 'task-types']) {
      expect((await h.request('GET', `/api/v1/projects/OPT/${path}/`, { token: stranger.token })).status).toBe(404);
      expect((await h.request('GET', `/api/v1/projects/NOPE/${path}/`, { token: admin.token })).status).toBe(404);
      const bad = await h.request('GET', `/api/v1/projects/opt/${path}/`, { token: admin.token });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.fields).toHaveProperty('project_key');
    }
    const workflowsOnly = await h.tokenFor(admin.accountId, ['workflows:write']);
    const res = await h.request('GET', '/api/v1/projects/OPT/priorities/', { token: workflowsOnly.token });
    expect(res.status).toBe(403);
    expect(res.body.error.details.required).toBe('tasks:read');
  });
});
