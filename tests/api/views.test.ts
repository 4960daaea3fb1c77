import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, TestHarness } from '../helpers/harness.ts';
import { createHarness } from '../helpers/harness.ts';
import { NOW, writeFixture } from '../query/fixture.ts';
import { seedWorld, type World } from '../query/world.ts';

describe('saved views: /api/v1/views/', () => {
  let h: TestHarness;
  let world: World;
  let member: Actor;
  let viewer: Actor;
  let qaAdmin: Actor;
  let outsider: Actor;
  beforeAll(async () => {
    h = await createHarness();
    world = await seedWorld(h);
    await writeFixture(h, world);
    h.clock.set(NOW);
    member = await h.actor({ org: 'query-world', role: 'member' });
    viewer = await h.actor({ org: 'query-world', role: 'member' });
    qaAdmin = await h.actor({ org: 'query-world', role: 'member' });
    outsider = await h.actor({ org: 'query-world', role: 'member' });
    await h.addMember('QA', member.accountId, 'member');
    await h.addMember('QA', viewer.accountId, 'viewer');
    await h.addMember('QA', qaAdmin.accountId, 'admin');
  });
  afterAll(() => h.close());

  const as = (actor: Actor) => ({
    get: (url: string) => h.request('GET', url, { token: actor.token }),
    post: (url: string, body: unknown) => h.request('POST', url, { token: actor.token, body }),
    patch: (url: string, body: unknown) => h.request('PATCH', url, { token: actor.token, body }),
    delete: (url: string) => h.request('DELETE', url, { token: actor.token }),
  });
  const names = async (actor: Actor, query = '') =>
    (await as(actor).get(`/api/v1/views/${query}`)).body.data.map((v: { name: string }) => v.name);

  it('creates, reads, lists, changes and deletes a view', async () => {
    const created = await as(world.caller).post('/api/v1/views/', {
      name: 'My open work',
      query: 'assignee = me() AND status_category != done',
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(Number),
      name: 'My open work',
      query: 'assignee = me() AND status_category != done',
      layout: 'list',
      group_by: null,
      columns: ['key', 'title', 'status', 'assignee', 'priority', 'due_date'],
      project: null,
      shared: false,
      created_by: { id: world.caller.accountId, name: expect.any(String), handle: expect.any(String) },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.data.id;
    expect((await as(world.caller).get(`/api/v1/views/${id}/`)).body.data).toEqual(created.body.data);

    const tasks = await as(world.caller).get(`/api/v1/views/${id}/tasks/`);
    expect(tasks.body.data.map((t: { key: string }) => t.key)).toEqual(['QB-1', 'QA-1']);

    h.clock.advance(1000);
    const changed = await as(world.caller).patch(`/api/v1/views/${id}/`, {
      name: 'Board',
      layout: 'board',
      group_by: 'status',
      columns: ['key', 'title'],
      project: 'QA',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      name: 'Board',
      layout: 'board',
      group_by: 'status',
      columns: ['key', 'title'],
      project: 'QA',
      query: 'assignee = me() AND status_category != done',
    });
    expect(changed.body.data.updated_at > created.body.data.updated_at).toBe(true);
    expect(
      (await as(world.caller).get(`/api/v1/views/${id}/tasks/`)).body.data.map((t: { key: string }) => t.key),
    ).toEqual(['QA-1']);
    expect(await names(world.caller, '?project=QA')).toEqual(['Board']);
    expect(await names(world.caller, '?project=none')).toEqual([]);

    expect((await as(world.caller).delete(`/api/v1/views/${id}/`)).status).toBe(204);
    expect((await as(world.caller).get(`/api/v1/views/${id}/`)).status).toBe(404);
  });

  it('checks the query on save: 400 INVALID_QUERY with its position, and nothing saved', async () => {
    const bad = await as(world.caller).post('/api/v1/views/', { name: 'Bad', query: 'stauts = done' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_QUERY', details: { position: 0 } });
    const wrongType = await as(world.caller).post('/api/v1/views/', { name: 'Bad', query: 'cf["Points"] ~ many' });
    expect(wrongType.body.error.code).toBe('INVALID_QUERY');
    const view = (await as(world.caller).post('/api/v1/views/', { name: 'Fine', query: 'label = bug' })).body.data;
    const patched = await as(world.caller).patch(`/api/v1/views/${view.id}/`, { query: 'label = (' });
    expect(patched.body.error).toMatchObject({ code: 'INVALID_QUERY', details: { position: 8 } });
    expect((await as(world.caller).get(`/api/v1/views/${view.id}/`)).body.data.query).toBe('label = bug');
    for (const body of [
      { name: '' },
      { name: 'x', layout: 'gantt' },
      { name: 'x', group_by: 'title' },
      { name: 'x', columns: ['key', 'key'] },
      { name: 'x', columns: ['secret'] },
      { name: 'x', extra: 1 },
    ])
      expect((await as(world.caller).post('/api/v1/views/', body)).status, JSON.stringify(body)).toBe(400);
    expect((await as(world.caller).patch(`/api/v1/views/${view.id}/`, {})).status).toBe(400);
    expect((await as(world.caller).post('/api/v1/views/', { name: 'x', project: 'QH' })).status).toBe(404);
    await as(world.caller).delete(`/api/v1/views/${view.id}/`);
  });

  it("private views are their creator's; shared ones reach who sees the project, or the organization", async () => {
    const post = (actor: Actor, body: object) => as(actor).post('/api/v1/views/', body);
    expect((await post(member, { name: 'mine', project: 'QA' })).status).toBe(201);
    expect((await post(member, { name: 'team QA', project: 'QA', shared: true })).status).toBe(201);
    expect((await post(world.caller, { name: 'team QB', project: 'QB', shared: true })).status).toBe(201);
    expect((await post(world.caller, { name: 'everyone', shared: true })).status).toBe(201);

    expect(await names(member)).toEqual(['everyone', 'mine', 'team QA']);
    expect(await names(viewer)).toEqual(['everyone', 'team QA']);
    expect(await names(world.caller)).toEqual(['everyone', 'team QA', 'team QB']);
    expect(await names(outsider)).toEqual(['everyone']);
    const restricted = await h.tokenFor(world.caller.accountId, ['tasks:read'], ['QA']);
    expect(
      (await h.request('GET', '/api/v1/views/', { token: restricted.token })).body.data.map(
        (v: { name: string }) => v.name,
      ),
    ).toEqual(['everyone', 'team QA']);
    const stranger = await h.actor({ org: 'another-org' });
    expect(await names(stranger)).toEqual([]);

    // An invisible view answers like a missing one.
    const mine = (await as(member).get('/api/v1/views/?project=QA')).body.data.find(
      (v: { name: string }) => v.name === 'mine',
    );
    for (const actor of [viewer, outsider, world.caller]) {
      expect((await as(actor).get(`/api/v1/views/${mine.id}/`)).status).toBe(404);
      expect((await as(actor).patch(`/api/v1/views/${mine.id}/`, { name: 'x' })).status).toBe(404);
      expect((await as(actor).get(`/api/v1/views/${mine.id}/tasks/`)).status).toBe(404);
    }

    // A shared view's tasks are the caller's own: the query runs with the reader's sight.
    const everyone = (await as(outsider).get('/api/v1/views/')).body.data[0];
    await as(world.caller).patch(`/api/v1/views/${everyone.id}/`, { query: 'assignee = me()' });
    expect((await as(outsider).get(`/api/v1/views/${everyone.id}/tasks/`)).body.data).toEqual([]);
    expect(
      (await as(world.caller).get(`/api/v1/views/${everyone.id}/tasks/`)).body.data.map((t: { key: string }) => t.key),
    ).toEqual(['QB-1', 'QA-1']);
  });

  it('who may share and change views', async () => {
    const post = (actor: Actor, body: object) => as(actor).post('/api/v1/views/', body);
    expect((await post(viewer, { name: 'v', project: 'QA', shared: true })).status).toBe(403);
    expect((await post(viewer, { name: 'v private', project: 'QA' })).status).toBe(201);
    const restricted = await h.tokenFor(member.accountId, ['tasks:write'], ['QA']);
    expect(
      (await h.request('POST', '/api/v1/views/', { token: restricted.token, body: { name: 'r', shared: true } }))
        .status,
    ).toBe(403);
    const guest = await h.actor({ org: 'query-world', role: 'guest' });
    expect((await post(guest, { name: 'g', shared: true })).status).toBe(403);
    const readOnly = await h.tokenFor(member.accountId, ['tasks:read']);
    expect((await h.request('POST', '/api/v1/views/', { token: readOnly.token, body: { name: 'r' } })).status).toBe(
      403,
    );

    const shared = (await post(member, { name: 'shared by member', project: 'QA', shared: true })).body.data;
    // Another member sees it but may not change it; the project's admin may.
    expect((await as(viewer).patch(`/api/v1/views/${shared.id}/`, { name: 'taken' })).status).toBe(403);
    expect((await as(viewer).delete(`/api/v1/views/${shared.id}/`)).status).toBe(403);
    expect((await as(qaAdmin).patch(`/api/v1/views/${shared.id}/`, { name: 'tidied' })).status).toBe(200);
    // Its creator may make it private again; then only the creator sees it.
    expect((await as(member).patch(`/api/v1/views/${shared.id}/`, { shared: false })).status).toBe(200);
    expect((await as(qaAdmin).get(`/api/v1/views/${shared.id}/`)).status).toBe(404);
    const orgWide = (await post(member, { name: 'org wide', shared: true })).body.data;
    expect((await as(qaAdmin).delete(`/api/v1/views/${orgWide.id}/`)).status).toBe(403);
    const owner = await h.actor({ org: 'query-world', role: 'admin' });
    expect((await as(owner).delete(`/api/v1/views/${orgWide.id}/`)).status).toBe(204);
  });

  it('a view of a project follows the project: gone when it is deleted', async () => {
    const temp = await h.project(world.caller, 'TMP');
    const view = (await as(world.caller).post('/api/v1/views/', { name: 'tmp', project: temp.key, shared: true })).body
      .data;
    expect((await as(world.caller).delete(`/api/v1/projects/${temp.key}/`)).status).toBe(204);
    expect((await as(world.caller).get(`/api/v1/views/${view.id}/`)).status).toBe(404);
  });
});
