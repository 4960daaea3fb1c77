import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { changesFor, events, insertTask, insertTaskLabels, taskLabelRows, taskRows } from '../helpers/factory.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('labels', () => {
  let h: TestHarness;
  let admin: Actor;
  let project: Json;

  const create = (body: unknown, token = admin.token, key = 'PLAN') =>
    h.request('POST', `/api/v1/projects/${key}/labels/`, { token, body });
  const label = async (name: string, extra: Record<string, unknown> = {}) =>
    (await create({ name, ...extra })).body.data;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    project = await h.project(admin, 'PLAN');
  });
  afterAll(() => h.close());

  it('creates a label with a default colour; colours are stored lowercase', async () => {
    const res = await create({ name: 'bug' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      project: 'PLAN',
      name: 'bug',
      color: '#ededed',
      description: '',
      task_count: 0,
      created_at: expect.stringMatching(/^2026-11-21T09:00:00\.\d{6}Z$/),
      updated_at: res.body.data.created_at,
    });
    const colored = await create({ name: 'ux', color: '#A1B2C3', description: 'User experience' });
    expect(colored.body.data).toMatchObject({ color: '#a1b2c3', description: 'User experience' });
    expect(
      (await h.request('GET', `/api/v1/labels/${colored.body.data.id}/`, { token: admin.token })).body.data,
    ).toEqual(colored.body.data);
  });

  it("lists a project's labels by name by default, in both pagination modes", async () => {
    const p = await h.project(admin, 'LIST');
    for (const name of ['zeta', 'alpha', 'mid']) await create({ name }, admin.token, 'LIST');
    const res = await h.request('GET', '/api/v1/projects/LIST/labels/', { token: admin.token });
    expect(res.body.data.map((l: Json) => l.name)).toEqual(['alpha', 'mid', 'zeta']);
    expect(res.body.pagination).toEqual({ count: 3, limit: 50, offset: 0 });
    const desc = await h.request('GET', '/api/v1/projects/LIST/labels/?ordering=-name&limit=2&offset=1', {
      token: admin.token,
    });
    expect(desc.body.data.map((l: Json) => l.name)).toEqual(['mid', 'alpha']);
    const cursor = await h.request('GET', '/api/v1/projects/LIST/labels/?cursor=&limit=2', { token: admin.token });
    expect(cursor.body.data.map((l: Json) => l.name)).toEqual(['zeta', 'alpha']);
    expect(cursor.body.pagination.has_more).toBe(true);
    const bad = await h.request('GET', '/api/v1/projects/LIST/labels/?ordering=color', { token: admin.token });
    expect(bad.status).toBe(400);
    expect(p.key).toBe('LIST');
  });

  it('names are unique per project (409 ALREADY_EXISTS) and fields are validated', async () => {
    await label('dup');
    const dup = await create({ name: 'dup' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'ALREADY_EXISTS', details: { field: 'name' } });
    await h.project(admin, 'PLANB');
    expect((await create({ name: 'dup' }, admin.token, 'PLANB')).status).toBe(201);

    for (const body of [
      { name: 'x', color: '#fff' },
      { name: 'x', color: 'red' },
      { name: ' x' },
      { name: '' },
      {},
      { name: 'x', colour: '#ffffff' },
    ]) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('PUT changes only the fields sent; renaming onto another label is 409', async () => {
    const l = await label('edit-me', { color: '#112233', description: 'before' });
    h.clock.advance(1000);
    const res = await h.request('PUT', `/api/v1/labels/${l.id}/`, {
      token: admin.token,
      body: { description: 'after' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'edit-me', color: '#112233', description: 'after' });
    expect(res.body.data.updated_at > l.updated_at).toBe(true);
    const recolor = await h.request('PUT', `/api/v1/labels/${l.id}/`, {
      token: admin.token,
      body: { color: '#FFAA00', name: 'edited' },
    });
    expect(recolor.body.data).toMatchObject({ name: 'edited', color: '#ffaa00', description: 'after' });
    await label('taken');
    const clash = await h.request('PUT', `/api/v1/labels/${l.id}/`, { token: admin.token, body: { name: 'taken' } });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('ALREADY_EXISTS');
    const bad = await h.request('PUT', `/api/v1/labels/${l.id}/`, { token: admin.token, body: { color: null } });
    expect(bad.status).toBe(400);
  });

  it('deleting a label takes it off every task (each task counts as updated) and keeps the tasks', async () => {
    const doomed = await label('doomed');
    const kept = await label('kept');
    const t1 = await insertTask(h, project.id);
    const t2 = await insertTask(h, project.id);
    const untouched = await insertTask(h, project.id);
    await insertTaskLabels(h, [
      [t1, doomed.id],
      [t2, doomed.id],
      [t2, kept.id],
      [untouched, kept.id],
    ]);
    expect((await h.request('GET', `/api/v1/labels/${doomed.id}/`, { token: admin.token })).body.data.task_count).toBe(
      2,
    );
    const before = await taskRows(h, project.id);

    h.clock.advance(60_000);
    expect((await h.request('DELETE', `/api/v1/labels/${doomed.id}/`, { token: admin.token })).status).toBe(204);
    expect((await h.request('GET', `/api/v1/labels/${doomed.id}/`, { token: admin.token })).status).toBe(404);

    const after = await taskRows(h, project.id);
    expect(after.map((t) => t.id)).toEqual(before.map((t) => t.id));
    for (const task of after) {
      const was = before.find((t) => t.id === task.id)!;
      if (task.id === t1 || task.id === t2) {
        expect(task).toEqual({ ...was, version: was.version + 1, updated_at: task.updated_at });
        expect(task.updated_at > was.updated_at).toBe(true);
      } else expect(task).toEqual(was);
    }
    // Each detached task goes through the task write path: a change record and a task.updated event.
    const changes = (await changesFor(h)).map(({ task_id, action }) => ({ task_id, action }));
    expect(changes).toEqual([
      { task_id: t1, action: 'updated' },
      { task_id: t2, action: 'updated' },
    ]);
    const updated = await events(h, 'task.updated');
    expect(updated.map((e) => (e.data.changes as { labels: unknown }).labels)).toEqual([
      { from: ['doomed'], to: [] },
      { from: ['doomed', 'kept'], to: ['kept'] },
    ]);
    const links = await taskLabelRows(h);
    expect(links.filter((l) => [t1, t2, untouched].includes(l.task_id))).toEqual([
      { task_id: t2, label_id: kept.id },
      { task_id: untouched, label_id: kept.id },
    ]);
    expect((await h.request('GET', `/api/v1/labels/${kept.id}/`, { token: admin.token })).body.data.task_count).toBe(2);
  });

  it('a project the caller cannot see is 404 everywhere; a malformed key is 400', async () => {
    const l = await label('secret');
    const stranger = await h.actor();
    expect((await h.request('GET', '/api/v1/projects/PLAN/labels/', { token: stranger.token })).status).toBe(404);
    expect((await create({ name: 'mine' }, stranger.token)).status).toBe(404);
    expect((await h.request('GET', `/api/v1/labels/${l.id}/`, { token: stranger.token })).status).toBe(404);
    expect(
      (await h.request('PUT', `/api/v1/labels/${l.id}/`, { token: stranger.token, body: { name: 'x' } })).status,
    ).toBe(404);
    expect((await h.request('DELETE', `/api/v1/labels/${l.id}/`, { token: stranger.token })).status).toBe(404);
    const restricted = await h.tokenFor(admin.accountId, ['tasks:write'], ['PLANB']);
    expect((await h.request('GET', `/api/v1/labels/${l.id}/`, { token: restricted.token })).status).toBe(404);
    expect((await h.request('GET', '/api/v1/projects/NOPE/labels/', { token: admin.token })).status).toBe(404);
    const malformed = await h.request('GET', '/api/v1/projects/plan/labels/', { token: admin.token });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details.fields).toHaveProperty('project_key');
  });

  it('viewers read but cannot change labels (403 FORBIDDEN); members can', async () => {
    const l = await label('roles');
    const viewer = await h.actor({ org: admin.org, role: 'member' });
    await h.addMember('PLAN', viewer.accountId, 'viewer');
    expect((await h.request('GET', '/api/v1/projects/PLAN/labels/', { token: viewer.token })).status).toBe(200);
    expect((await h.request('GET', `/api/v1/labels/${l.id}/`, { token: viewer.token })).status).toBe(200);
    for (const res of [
      await create({ name: 'by-viewer' }, viewer.token),
      await h.request('PUT', `/api/v1/labels/${l.id}/`, { token: viewer.token, body: { name: 'x' } }),
      await h.request('DELETE', `/api/v1/labels/${l.id}/`, { token: viewer.token }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }

    const member = await h.actor({ org: admin.org, role: 'member' });
    await h.addMember('PLAN', member.accountId, 'member');
    const made = await create({ name: 'by-member' }, member.token);
    expect(made.status).toBe(201);
    expect(
      (
        await h.request('PUT', `/api/v1/labels/${made.body.data.id}/`, {
          token: member.token,
          body: { color: '#000000' },
        })
      ).status,
    ).toBe(200);
    expect((await h.request('DELETE', `/api/v1/labels/${made.body.data.id}/`, { token: member.token })).status).toBe(
      204,
    );
  });

  it('creation is safely retryable with an Idempotency-Key', async () => {
    const headers = { 'idempotency-key': 'label-retry-1' };
    const first = await h.request('POST', '/api/v1/projects/PLAN/labels/', {
      token: admin.token,
      body: { name: 'retry' },
      headers,
    });
    const second = await h.request('POST', '/api/v1/projects/PLAN/labels/', {
      token: admin.token,
      body: { name: 'retry' },
      headers,
    });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
  });
});
