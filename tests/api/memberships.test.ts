import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';

describe('memberships', () => {
  let h: TestHarness;
  let admin: Actor;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let project: any;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    project = await h.project(admin, 'TEAM');
    await h.project(admin, 'OTHER');
  });
  afterAll(() => h.close());

  it('lists memberships filtered by project', async () => {
    const res = await h.request('GET', `/api/v1/memberships/?project=${project.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      expect.objectContaining({
        project: project.id,
        project_key: 'TEAM',
        user: admin.accountId,
        role: 'admin',
        user_kind: 'service',
      }),
    ]);
    const all = await h.request('GET', '/api/v1/memberships/', { token: admin.token });
    expect(all.body.pagination.count).toBe(2);
  });

  it('a project admin adds, changes and removes members', async () => {
    const bot = await h.actor({ org: admin.org, role: 'member' });
    const created = await h.request('POST', '/api/v1/memberships/', {
      token: admin.token,
      body: { project: project.id, user: bot.accountId },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ project: project.id, user: bot.accountId, role: 'member' });
    const id = created.body.data.id;

    expect((await h.request('GET', `/api/v1/projects/${project.id}/`, { token: bot.token })).status).toBe(200);

    const dup = await h.request('POST', '/api/v1/memberships/', {
      token: admin.token,
      body: { project: project.id, user: bot.accountId },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('ALREADY_EXISTS');

    const put = await h.request('PUT', `/api/v1/memberships/${id}/`, { token: admin.token, body: { role: 'viewer' } });
    expect(put.body.data.role).toBe('viewer');
    const patch = await h.request('PATCH', `/api/v1/memberships/${id}/`, { token: admin.token, body: {} });
    expect(patch.body.data.role).toBe('viewer');

    expect((await h.request('DELETE', `/api/v1/memberships/${id}/`, { token: admin.token })).status).toBe(204);
    expect((await h.request('GET', `/api/v1/projects/${project.id}/`, { token: bot.token })).status).toBe(404);
    expect((await h.request('GET', `/api/v1/memberships/${id}/`, { token: admin.token })).status).toBe(404);
  });

  it('a service account cannot add itself to a project it cannot see (404)', async () => {
    const outsider = await h.actor({ org: admin.org, role: 'admin' });
    const res = await h.request('POST', '/api/v1/memberships/', {
      token: outsider.token,
      body: { project: project.id, user: outsider.accountId, role: 'admin' },
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('a plain member cannot manage memberships (403)', async () => {
    const member = await h.actor({ org: admin.org, role: 'member' });
    await h.addMember('TEAM', member.accountId, 'member');
    const other = await h.actor({ org: admin.org, role: 'member' });
    const res = await h.request('POST', '/api/v1/memberships/', {
      token: member.token,
      body: { project: project.id, user: other.accountId },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });

  it('users of another workspace cannot be added', async () => {
    const foreign = await h.actor();
    const res = await h.request('POST', '/api/v1/memberships/', {
      token: admin.token,
      body: { project: project.id, user: foreign.accountId },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields).toHaveProperty('user');
  });

  it('the last admin cannot be demoted or removed (409 LAST_ADMIN)', async () => {
    const solo = await h.actor();
    const p = await h.project(solo, 'SOLO');
    const list = await h.request('GET', `/api/v1/memberships/?project=${p.id}`, { token: solo.token });
    const id = list.body.data[0].id;
    const demote = await h.request('PATCH', `/api/v1/memberships/${id}/`, {
      token: solo.token,
      body: { role: 'member' },
    });
    expect(demote.status).toBe(409);
    expect(demote.body.error.code).toBe('LAST_ADMIN');
    expect((await h.request('DELETE', `/api/v1/memberships/${id}/`, { token: solo.token })).status).toBe(409);
  });

  it('a restricted token only sees memberships of its projects', async () => {
    const t = await h.tokenFor(admin.accountId, ['projects:read'], ['OTHER']);
    const res = await h.request('GET', '/api/v1/memberships/', { token: t.token });
    expect(res.body.data.every((m: { project_key: string }) => m.project_key === 'OTHER')).toBe(true);
    const hidden = await h.request('GET', `/api/v1/memberships/?project=${project.id}`, { token: t.token });
    expect(hidden.body.data).toEqual([]);
  });
});
