import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { insertTask, taskRows } from '../helpers/factory.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('milestones and sprints', () => {
  let h: TestHarness;
  let admin: Actor;
  let project: Json;

  const post = (kind: 'milestones' | 'sprints', body: unknown, key = 'MS', token = admin.token) =>
    h.request('POST', `/api/v1/projects/${key}/${kind}/`, { token, body });
  const put = (kind: 'milestones' | 'sprints', id: number, body: unknown, token = admin.token) =>
    h.request('PUT', `/api/v1/${kind}/${id}/`, { token, body });
  const names = async (url: string) =>
    (await h.request('GET', url, { token: admin.token })).body.data.map((x: Json) => x.name);

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    project = await h.project(admin, 'MS');
  });
  afterAll(() => h.close());

  describe('milestones', () => {
    it('creates, reads and lists milestones (open by default)', async () => {
      const res = await post('milestones', { name: 'v1.0', due_date: '2026-12-15', description: 'First release' });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        id: expect.any(Number),
        project: 'MS',
        name: 'v1.0',
        description: 'First release',
        due_date: '2026-12-15',
        state: 'open',
        task_count: 0,
        created_at: expect.any(String),
        updated_at: res.body.data.created_at,
      });
      const read = await h.request('GET', `/api/v1/milestones/${res.body.data.id}/`, { token: admin.token });
      expect(read.body.data).toEqual(res.body.data);
      const bare = await post('milestones', { name: 'Someday' });
      expect(bare.body.data).toMatchObject({ due_date: null, description: '', state: 'open' });
    });

    it('orders by due date with undated milestones last, on every database; filters by state', async () => {
      await h.project(admin, 'MSO');
      await post('milestones', { name: 'late', due_date: '2027-03-01' }, 'MSO');
      await post('milestones', { name: 'undated' }, 'MSO');
      await post('milestones', { name: 'early', due_date: '2026-12-01', state: 'closed' }, 'MSO');
      expect(await names('/api/v1/projects/MSO/milestones/')).toEqual(['early', 'late', 'undated']);
      expect(await names('/api/v1/projects/MSO/milestones/?ordering=-due_date')).toEqual(['undated', 'late', 'early']);
      expect(await names('/api/v1/projects/MSO/milestones/?ordering=name')).toEqual(['early', 'late', 'undated']);
      expect(await names('/api/v1/projects/MSO/milestones/?state=open')).toEqual(['late', 'undated']);
      expect(await names('/api/v1/projects/MSO/milestones/?cursor=')).toEqual(['late', 'undated', 'early']);
    });

    it('validates dates and states; names are unique per project', async () => {
      for (const body of [
        { name: 'x', due_date: '2026-02-30' },
        { name: 'x', due_date: '2026-1-5' },
        { name: 'x', due_date: '2026-01-05T00:00:00Z' },
        { name: 'x', state: 'done' },
      ]) {
        const res = await post('milestones', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      await post('milestones', { name: 'unique-ms' });
      const dup = await post('milestones', { name: 'unique-ms' });
      expect(dup.status).toBe(409);
      expect(dup.body.error).toMatchObject({ code: 'ALREADY_EXISTS', details: { field: 'name' } });
    });

    it('PUT is partial; null clears the due date; a taken name is 409', async () => {
      const m = (await post('milestones', { name: 'edit-ms', due_date: '2026-12-24', description: 'keep' })).body.data;
      const closed = await put('milestones', m.id, { state: 'closed' });
      expect(closed.body.data).toMatchObject({
        name: 'edit-ms',
        due_date: '2026-12-24',
        description: 'keep',
        state: 'closed',
      });
      const cleared = await put('milestones', m.id, { due_date: null });
      expect(cleared.body.data).toMatchObject({ due_date: null, state: 'closed', description: 'keep' });
      await post('milestones', { name: 'other-ms' });
      const clash = await put('milestones', m.id, { name: 'other-ms' });
      expect(clash.status).toBe(409);
      expect((await put('milestones', m.id, { name: null })).status).toBe(400);
    });

    it('deleting a milestone detaches its tasks (each counts as updated) and deletes nothing else', async () => {
      const m = (await post('milestones', { name: 'doomed-ms' })).body.data;
      const other = (await post('milestones', { name: 'kept-ms' })).body.data;
      const a = await insertTask(h, project.id, { milestone_id: m.id });
      const b = await insertTask(h, project.id, { milestone_id: m.id });
      const c = await insertTask(h, project.id, { milestone_id: other.id });
      expect((await h.request('GET', `/api/v1/milestones/${m.id}/`, { token: admin.token })).body.data.task_count).toBe(
        2,
      );
      const before = await taskRows(h, project.id);

      h.clock.advance(1000);
      expect((await h.request('DELETE', `/api/v1/milestones/${m.id}/`, { token: admin.token })).status).toBe(204);
      expect((await h.request('GET', `/api/v1/milestones/${m.id}/`, { token: admin.token })).status).toBe(404);
      const after = await taskRows(h, project.id);
      expect(after.map((t) => t.id)).toEqual(before.map((t) => t.id));
      for (const id of [a, b]) {
        const was = before.find((t) => t.id === id)!;
        const now = after.find((t) => t.id === id)!;
        expect(now).toEqual({ ...was, milestone_id: null, version: was.version + 1, updated_at: now.updated_at });
        expect(now.updated_at > was.updated_at).toBe(true);
      }
      expect(after.find((t) => t.id === c)).toEqual(before.find((t) => t.id === c));
    });
  });

  describe('sprints', () => {
    it('creates a planned sprint; end_date before start_date is a 400, equal dates are fine', async () => {
      const res = await post('sprints', {
        name: 'Sprint 1',
        goal: 'Ship login',
        start_date: '2026-11-23',
        end_date: '2026-12-04',
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        id: expect.any(Number),
        project: 'MS',
        name: 'Sprint 1',
        goal: 'Ship login',
        start_date: '2026-11-23',
        end_date: '2026-12-04',
        state: 'planned',
        task_count: 0,
        created_at: expect.any(String),
        updated_at: res.body.data.created_at,
      });
      const backwards = await post('sprints', { name: 'Backwards', start_date: '2026-12-04', end_date: '2026-12-03' });
      expect(backwards.status).toBe(400);
      expect(backwards.body.error.details.fields).toEqual({ end_date: 'must not be before start_date' });
      expect(
        (await post('sprints', { name: 'One day', start_date: '2026-12-04', end_date: '2026-12-04' })).status,
      ).toBe(201);
      expect((await post('sprints', { name: 'Open ended', start_date: '2026-12-04' })).body.data.end_date).toBeNull();
    });

    it('PUT checks the merged dates: a new end before the stored start is a 400', async () => {
      const s = (await post('sprints', { name: 'Dates', start_date: '2026-12-10', end_date: '2026-12-20' })).body.data;
      const bad = await put('sprints', s.id, { end_date: '2026-12-09' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.fields).toHaveProperty('end_date');
      const moved = await put('sprints', s.id, { start_date: '2026-12-01', end_date: '2026-12-09' });
      expect(moved.body.data).toMatchObject({ start_date: '2026-12-01', end_date: '2026-12-09', name: 'Dates' });
      const cleared = await put('sprints', s.id, { start_date: null });
      expect(cleared.body.data).toMatchObject({ start_date: null, end_date: '2026-12-09' });
    });

    it('at most one active sprint per project (409 ACTIVE_SPRINT_EXISTS)', async () => {
      await h.project(admin, 'ACT');
      const first = (await post('sprints', { name: 'A', state: 'active' }, 'ACT')).body.data;
      expect(first.state).toBe('active');
      const second = await post('sprints', { name: 'B', state: 'active' }, 'ACT');
      expect(second.status).toBe(409);
      expect(second.body.error).toMatchObject({ code: 'ACTIVE_SPRINT_EXISTS', details: { sprint: first.id } });

      const b = (await post('sprints', { name: 'B' }, 'ACT')).body.data;
      const start = await put('sprints', b.id, { state: 'active' });
      expect(start.status).toBe(409);
      expect(start.body.error.code).toBe('ACTIVE_SPRINT_EXISTS');
      expect((await put('sprints', first.id, { state: 'active', goal: 'still on' })).status).toBe(200);

      expect((await put('sprints', first.id, { state: 'completed' })).body.data.state).toBe('completed');
      expect((await put('sprints', b.id, { state: 'active' })).body.data.state).toBe('active');
      // Another project may have its own active sprint.
      expect((await post('sprints', { name: 'Elsewhere', state: 'active' })).status).toBe(201);
      expect(await names('/api/v1/projects/ACT/sprints/?state=active')).toEqual(['B']);
    });

    it('concurrent starts of different sprints: exactly one wins, the others get 409', async () => {
      await h.project(admin, 'CSTART');
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push((await post('sprints', { name: `C${i}` }, 'CSTART')).body.data.id);
      const results = await Promise.all(ids.map((id) => put('sprints', id, { state: 'active' })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      const losers = results.filter((r) => r.status !== 200);
      expect(losers.map((r) => r.body.error.code)).toEqual(Array(4).fill('ACTIVE_SPRINT_EXISTS'));
      expect(await names('/api/v1/projects/CSTART/sprints/?state=active')).toHaveLength(1);
    });

    it('the database itself refuses a second active sprint, so concurrent starts cannot both win', async () => {
      const p = await h.project(admin, 'RACE');
      const now = h.clock.nowIso();
      const row = (name: string) => ({
        project_id: p.id,
        name,
        goal: '',
        start_date: null,
        end_date: null,
        state: 'active' as const,
        created_at: now,
        updated_at: now,
      });
      await h.ctx.db.insertInto('sprints').values(row('one')).execute();
      await expect(h.ctx.db.insertInto('sprints').values(row('two')).execute()).rejects.toThrow();
      await h.ctx.db
        .insertInto('sprints')
        .values({ ...row('three'), state: 'completed' })
        .execute();
    });

    it('names are unique per project (409 ALREADY_EXISTS), also when renaming', async () => {
      await post('sprints', { name: 'Taken' });
      const dup = await post('sprints', { name: 'Taken' });
      expect(dup.status).toBe(409);
      expect(dup.body.error).toMatchObject({ code: 'ALREADY_EXISTS', details: { field: 'name' } });
      const s = (await post('sprints', { name: 'Free' })).body.data;
      const clash = await put('sprints', s.id, { name: 'Taken' });
      expect(clash.status).toBe(409);
      expect(clash.body.error.code).toBe('ALREADY_EXISTS');
    });

    it('orders by start date with undated sprints last; other orderings and the state filter work', async () => {
      await h.project(admin, 'SPO');
      await post('sprints', { name: 'S3', start_date: '2027-01-11' }, 'SPO');
      await post('sprints', { name: 'Backlog' }, 'SPO');
      await post(
        'sprints',
        { name: 'S1', start_date: '2026-12-01', end_date: '2026-12-14', state: 'completed' },
        'SPO',
      );
      expect(await names('/api/v1/projects/SPO/sprints/')).toEqual(['S1', 'S3', 'Backlog']);
      expect(await names('/api/v1/projects/SPO/sprints/?ordering=-start_date')).toEqual(['Backlog', 'S3', 'S1']);
      expect(await names('/api/v1/projects/SPO/sprints/?ordering=end_date')).toEqual(['S1', 'S3', 'Backlog']);
      expect(await names('/api/v1/projects/SPO/sprints/?state=planned&ordering=name')).toEqual(['Backlog', 'S3']);
    });

    it('deleting a sprint detaches its tasks and counts them as updated', async () => {
      const s = (await post('sprints', { name: 'Doomed sprint' })).body.data;
      const t = await insertTask(h, project.id, { sprint_id: s.id });
      expect((await h.request('GET', `/api/v1/sprints/${s.id}/`, { token: admin.token })).body.data.task_count).toBe(1);
      const was = (await taskRows(h, project.id)).find((r) => r.id === t)!;
      h.clock.advance(1000);
      expect((await h.request('DELETE', `/api/v1/sprints/${s.id}/`, { token: admin.token })).status).toBe(204);
      const now = (await taskRows(h, project.id)).find((r) => r.id === t)!;
      expect(now).toEqual({ ...was, sprint_id: null, version: was.version + 1, updated_at: now.updated_at });
      expect(now.updated_at > was.updated_at).toBe(true);
    });
  });

  it('invisible projects and their milestones and sprints are 404; viewers get 403 on writes', async () => {
    const m = (await post('milestones', { name: 'vis-ms' })).body.data;
    const s = (await post('sprints', { name: 'vis-sprint' })).body.data;
    const stranger = await h.actor();
    for (const kind of ['milestones', 'sprints'] as const) {
      const id = kind === 'milestones' ? m.id : s.id;
      expect((await h.request('GET', `/api/v1/projects/MS/${kind}/`, { token: stranger.token })).status).toBe(404);
      expect((await post(kind, { name: 'x' }, 'MS', stranger.token)).status).toBe(404);
      expect((await h.request('GET', `/api/v1/${kind}/${id}/`, { token: stranger.token })).status).toBe(404);
      expect((await put(kind, id, { name: 'x' }, stranger.token)).status).toBe(404);
      expect((await h.request('DELETE', `/api/v1/${kind}/${id}/`, { token: stranger.token })).status).toBe(404);
      expect((await h.request('GET', `/api/v1/projects/ms/${kind}/`, { token: admin.token })).status).toBe(400);
    }

    const viewer = await h.actor({ org: admin.org, role: 'member' });
    await h.addMember('MS', viewer.accountId, 'viewer');
    for (const kind of ['milestones', 'sprints'] as const) {
      const id = kind === 'milestones' ? m.id : s.id;
      expect((await h.request('GET', `/api/v1/${kind}/${id}/`, { token: viewer.token })).status).toBe(200);
      for (const res of [
        await post(kind, { name: 'by viewer' }, 'MS', viewer.token),
        await put(kind, id, { name: 'x' }, viewer.token),
        await h.request('DELETE', `/api/v1/${kind}/${id}/`, { token: viewer.token }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe('FORBIDDEN');
      }
    }
    const readOnly = await h.tokenFor(admin.accountId, ['tasks:read']);
    const denied = await post('milestones', { name: 'scope' }, 'MS', readOnly.token);
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required: 'tasks:write' } });
  });
});
