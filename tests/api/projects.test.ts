import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxRows } from '../helpers/factory.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';

describe('projects', () => {
  let h: TestHarness;
  let admin: Actor;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
  });
  afterAll(() => h.close());

  it('creates a project, makes the creator its admin, and provisions defaults in the same call', async () => {
    const res = await h.request('POST', '/api/v1/projects/', {
      token: admin.token,
      body: { name: 'Website', key: 'WEB', description: 'd' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      key: 'WEB',
      name: 'Website',
      description: 'd',
      role: 'admin',
      created_by: admin.accountId,
      default_status: 'To Do',
      default_task_type: 'Task',
      default_priority: 'Medium',
    });
    expect(res.body.data.workflow).toBeTypeOf('number');
    const statuses = await h.ctx.db
      .selectFrom('statuses')
      .select(['name', 'category'])
      .where('project_id', '=', res.body.data.id)
      .orderBy('position')
      .execute();
    expect(statuses.map((s) => s.category)).toEqual(['todo', 'in_progress', 'in_progress', 'done']);
    const transitions = await h.ctx.db
      .selectFrom('transitions')
      .select('id')
      .where('workflow_id', '=', res.body.data.workflow)
      .execute();
    expect(transitions.length).toBeGreaterThan(0);
  });

  it("announces the creator's admin membership as membership.changed, right after project.created", async () => {
    const res = await h.request('POST', '/api/v1/projects/', {
      token: admin.token,
      body: { name: 'Events', key: 'EVT' },
    });
    expect(res.status).toBe(201);
    const project = res.body.data;
    const membership = await h.ctx.db
      .selectFrom('project_memberships')
      .select('id')
      .where('project_id', '=', project.id)
      .executeTakeFirstOrThrow();
    const creator = await h.ctx.db
      .selectFrom('users')
      .select('name')
      .where('id', '=', admin.accountId)
      .executeTakeFirstOrThrow();
    const ofProject = (await outboxRows(h))
      .map((row) => JSON.parse(row.envelope) as { type: string; source: string; actor: { id: number }; data: unknown })
      .filter((e) => JSON.stringify(e.data).includes('"EVT"'));
    expect(ofProject.map((e) => [e.type, e.source, e.actor, e.data])).toEqual([
      ['project.created', 'api', expect.objectContaining({ id: admin.accountId }), expect.anything()],
      [
        'membership.changed',
        'api',
        expect.objectContaining({ id: admin.accountId }),
        {
          membership: {
            id: membership.id,
            project: { id: project.id, key: 'EVT' },
            user: { id: admin.accountId, name: creator.name },
          },
          change: 'added',
          from_role: null,
          to_role: 'admin',
        },
      ],
    ]);
  });

  it('refuses a key that is not 2-10 uppercase letters/digits starting with a letter', async () => {
    for (const key of ['A', 'web', '1AB', 'ABCDEFGHIJK', 'AB-C', '']) {
      const res = await h.request('POST', '/api/v1/projects/', { token: admin.token, body: { name: 'x', key } });
      expect(res.status, key).toBe(400);
      expect(res.body.error.details.fields).toHaveProperty('key');
    }
  });

  it('a key is unique in the workspace: a second WEB is 409 ALREADY_EXISTS', async () => {
    await h.project(admin, 'DUP');
    const res = await h.request('POST', '/api/v1/projects/', {
      token: admin.token,
      body: { name: 'again', key: 'DUP' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'ALREADY_EXISTS', details: { field: 'key' } });
  });

  it('the same key is fine in another workspace', async () => {
    const other = await h.actor();
    expect(
      (await h.request('POST', '/api/v1/projects/', { token: other.token, body: { name: 'x', key: 'DUP' } })).status,
    ).toBe(201);
  });

  it('PATCH changes only what is sent; PUT replaces writable fields', async () => {
    const p = await h.project(admin, 'UPD');
    const patched = await h.request('PATCH', `/api/v1/projects/${p.id}/`, {
      token: admin.token,
      body: { description: 'hello' },
    });
    expect(patched.body.data).toMatchObject({ name: p.name, description: 'hello' });
    const put = await h.request('PUT', `/api/v1/projects/${p.id}/`, {
      token: admin.token,
      body: { name: 'Renamed', key: 'UPD' },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ name: 'Renamed', description: '', key: 'UPD' });
    expect(put.body.data.updated_at > p.updated_at).toBe(true);
  });

  it('the key is immutable: changing it is a 400 and changes nothing', async () => {
    const p = await h.project(admin, 'IMM');
    const res = await h.request('PATCH', `/api/v1/projects/${p.id}/`, {
      token: admin.token,
      body: { key: 'NEW', name: 'changed' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields).toEqual({ key: 'is immutable after creation' });
    const after = await h.request('GET', `/api/v1/projects/${p.id}/`, { token: admin.token });
    expect(after.body.data).toMatchObject({ key: 'IMM', name: p.name });
  });

  it("defaults can be changed to one of the project's own values only", async () => {
    const p = await h.project(admin, 'DEF');
    const ok = await h.request('PATCH', `/api/v1/projects/${p.id}/`, {
      token: admin.token,
      body: { default_priority: 'High', default_task_type: 'Bug' },
    });
    expect(ok.body.data).toMatchObject({ default_priority: 'High', default_task_type: 'Bug' });
    const bad = await h.request('PATCH', `/api/v1/projects/${p.id}/`, {
      token: admin.token,
      body: { default_status: 'Nope' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields).toHaveProperty('default_status');
  });

  it('a viewer or plain member cannot change or delete the project (403), a stranger gets 404', async () => {
    const p = await h.project(admin, 'ROLE');
    const member = await h.actor({ org: admin.org, role: 'member' });
    await h.addMember('ROLE', member.accountId, 'member');
    const viewer = await h.actor({ org: admin.org, role: 'member' });
    await h.addMember('ROLE', viewer.accountId, 'viewer');
    const outsider = await h.actor({ org: admin.org, role: 'member' });

    for (const who of [member, viewer]) {
      expect((await h.request('GET', `/api/v1/projects/${p.id}/`, { token: who.token })).status).toBe(200);
      const res = await h.request('PATCH', `/api/v1/projects/${p.id}/`, { token: who.token, body: { name: 'x' } });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
      expect((await h.request('DELETE', `/api/v1/projects/${p.id}/`, { token: who.token })).status).toBe(403);
    }
    expect(
      (await h.request('PATCH', `/api/v1/projects/${p.id}/`, { token: outsider.token, body: { name: 'x' } })).status,
    ).toBe(404);
  });

  it('a workspace admin who can see a project may administer it without a project admin role', async () => {
    const p = await h.project(admin, 'WSADM');
    const wsAdmin = await h.actor({ org: admin.org, role: 'admin' });
    await h.addMember('WSADM', wsAdmin.accountId, 'viewer');
    expect(
      (await h.request('PATCH', `/api/v1/projects/${p.id}/`, { token: wsAdmin.token, body: { name: 'ok' } })).status,
    ).toBe(200);
  });

  it('DELETE removes the project and every row that belonged to it', async () => {
    const p = await h.project(admin, 'GONE');
    const res = await h.request('DELETE', `/api/v1/projects/${p.id}/`, { token: admin.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await h.request('GET', `/api/v1/projects/${p.id}/`, { token: admin.token })).status).toBe(404);
    for (const table of ['statuses', 'workflows', 'task_types', 'priorities', 'project_memberships'] as const) {
      const rows = await h.ctx.db.selectFrom(table).select('id').where('project_id', '=', p.id).execute();
      expect(rows, table).toEqual([]);
    }
    const transitions = await h.ctx.db
      .selectFrom('transitions')
      .select('id')
      .where('workflow_id', '=', p.workflow)
      .execute();
    expect(transitions).toEqual([]);
  });

  it('a non-integer id in the path is a 400, an unknown one 404', async () => {
    expect((await h.request('GET', '/api/v1/projects/abc/', { token: admin.token })).status).toBe(400);
    expect((await h.request('GET', '/api/v1/projects/99999999999999999999/', { token: admin.token })).status).toBe(400);
    expect((await h.request('GET', '/api/v1/projects/424242/', { token: admin.token })).status).toBe(404);
  });
});
