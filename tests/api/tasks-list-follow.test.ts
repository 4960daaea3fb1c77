import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { addLabel, addMilestone, addSprint, createTask, events } from '../helpers/factory.ts';

describe('listing tasks (filters, ordering, both pagination modes) and following', () => {
  let h: TestHarness;
  let admin: Actor;
  let dev: Actor;
  let milestone: number;
  let sprint: number;
  let since: string;

  const keys = async (query: string) => {
    const res = await h.request('GET', `/api/v1/projects/LIST/tasks/${query}`, { token: admin.token });
    expect(res.status, res.text).toBe(200);
    return res.body.data.map((t: { key: string }) => t.key);
  };

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    dev = await h.actor({ org: admin.org, role: 'member' });
    await h.project(admin, 'LIST');
    await h.addMember('LIST', dev.accountId, 'member');
    await addLabel(h, 'LIST', 'api');
    await addLabel(h, 'LIST', 'ui');
    milestone = await addMilestone(h, 'LIST', 'M1');
    sprint = await addSprint(h, 'LIST', 'S1');
    // LIST-1 .. LIST-6, one second apart.
    const specs = [
      { title: 'one', priority: 'Low', due_date: '2026-12-10', labels: ['api'], assignee: dev.accountId },
      { title: 'two', priority: 'Urgent', task_type: 'Bug', milestone },
      { title: 'three', priority: 'High', due_date: '2026-12-01', labels: ['ui', 'api'], sprint },
      { title: 'four', priority: 'Medium', assignee: admin.accountId },
      { title: 'five', priority: 'Low', due_date: '2026-12-20', parent: 'LIST-1' },
      { title: 'six', priority: 'High', parent: 'LIST-1' },
    ];
    for (const body of specs) {
      h.clock.advance(1000);
      await createTask(h, admin, 'LIST', body);
    }
    h.clock.advance(60_000);
    since = h.clock.nowIso();
    h.clock.advance(1000);
    await h.request('PUT', '/api/v1/tasks/LIST-2/', { token: admin.token, body: { status: 'In Progress' } });
    await h.request('PUT', '/api/v1/tasks/LIST-4/', { token: admin.token, body: { status: 'In Progress' } });
    await h.request('PUT', '/api/v1/tasks/LIST-4/', { token: admin.token, body: { status: 'In Review' } });
  });
  afterAll(() => h.close());

  it('default order is by key number; every task of the project and no other', async () => {
    await h.project(admin, 'NOISE');
    await createTask(h, admin, 'NOISE');
    expect(await keys('')).toEqual(['LIST-1', 'LIST-2', 'LIST-3', 'LIST-4', 'LIST-5', 'LIST-6']);
  });

  it('filters: status (names, comma list), status_category, assignee (id or none), type, priority, label', async () => {
    expect(await keys('?status=In%20Progress')).toEqual(['LIST-2']);
    expect(await keys('?status=In%20Progress,In%20Review')).toEqual(['LIST-2', 'LIST-4']);
    expect(await keys('?status_category=in_progress')).toEqual(['LIST-2', 'LIST-4']);
    expect(await keys('?status_category=todo,done')).toEqual(['LIST-1', 'LIST-3', 'LIST-5', 'LIST-6']);
    expect(await keys(`?assignee=${dev.accountId}`)).toEqual(['LIST-1']);
    expect(await keys('?assignee=none')).toEqual(['LIST-2', 'LIST-3', 'LIST-5', 'LIST-6']);
    expect(await keys('?task_type=Bug')).toEqual(['LIST-2']);
    expect(await keys('?priority=Low,Urgent')).toEqual(['LIST-1', 'LIST-2', 'LIST-5']);
    expect(await keys('?label=api')).toEqual(['LIST-1', 'LIST-3']);
    expect(await keys('?label=ui,api&status=To%20Do')).toEqual(['LIST-1', 'LIST-3']);
  });

  it('filters: milestone, sprint (id or none), parent (key or none), updated_since, due_before, due_after', async () => {
    expect(await keys(`?milestone=${milestone}`)).toEqual(['LIST-2']);
    expect(await keys(`?sprint=${sprint}`)).toEqual(['LIST-3']);
    expect((await keys('?sprint=none')).length).toBe(5);
    expect(await keys('?parent=LIST-1')).toEqual(['LIST-5', 'LIST-6']);
    expect(await keys('?parent=none')).toEqual(['LIST-1', 'LIST-2', 'LIST-3', 'LIST-4']);
    expect(await keys(`?updated_since=${encodeURIComponent(since)}`)).toEqual(['LIST-2', 'LIST-4']);
    // Any offset and precision are normalized before comparing.
    const plusOne = since
      .replace(/T(\d\d)/, (_m, hh: string) => `T${String(Number(hh) + 1).padStart(2, '0')}`)
      .replace('Z', '+01:00');
    expect(await keys(`?updated_since=${encodeURIComponent(plusOne)}`)).toEqual(['LIST-2', 'LIST-4']);
    expect(await keys('?due_before=2026-12-10')).toEqual(['LIST-1', 'LIST-3']);
    expect(await keys('?due_after=2026-12-10')).toEqual(['LIST-1', 'LIST-5']);
    expect(await keys('?due_after=2026-12-02&due_before=2026-12-19')).toEqual(['LIST-1']);
  });

  it('bad filter values are 400s naming the parameter', async () => {
    for (const query of [
      '?status_category=open',
      '?assignee=me',
      '?parent=LIST',
      '?updated_since=yesterday',
      '?due_before=2026-13-01',
      '?assignee=9999999999',
    ]) {
      const res = await h.request('GET', `/api/v1/projects/LIST/tasks/${query}`, { token: admin.token });
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.error.details.fields)[0], query).toBe(query.slice(1).split('=')[0]);
    }
  });

  it("ordering: priority by the project's priority order, due_date with undated last, created_at, updated_at, key", async () => {
    // Ties fall back to creation order, in the direction of the last ordering field.
    expect(await keys('?ordering=-priority')).toEqual(['LIST-2', 'LIST-6', 'LIST-3', 'LIST-4', 'LIST-5', 'LIST-1']);
    expect(await keys('?ordering=due_date')).toEqual(['LIST-3', 'LIST-1', 'LIST-5', 'LIST-2', 'LIST-4', 'LIST-6']);
    expect(await keys('?ordering=-created_at&limit=2')).toEqual(['LIST-6', 'LIST-5']);
    expect((await keys('?ordering=-updated_at')).slice(0, 2)).toEqual(['LIST-4', 'LIST-2']);
    expect(await keys('?ordering=-key&limit=1')).toEqual(['LIST-6']);
    expect(await keys('?ordering=priority,-key&limit=3')).toEqual(['LIST-5', 'LIST-1', 'LIST-4']);
    const bad = await h.request('GET', '/api/v1/projects/LIST/tasks/?ordering=title', { token: admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields.ordering).toMatch(/allowed: created_at, updated_at, priority, due_date, key/);
  });

  it('offset pagination counts the filtered set; cursor mode walks every task once', async () => {
    const page = await h.request('GET', '/api/v1/projects/LIST/tasks/?limit=2&offset=2&priority=Low,High', {
      token: admin.token,
    });
    expect(page.body.pagination).toEqual({ count: 4, limit: 2, offset: 2 });
    expect(page.body.data.map((t: { key: string }) => t.key)).toEqual(['LIST-5', 'LIST-6']);
    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const res = await h.request('GET', `/api/v1/projects/LIST/tasks/?cursor=${encodeURIComponent(cursor)}&limit=4`, {
        token: admin.token,
      });
      seen.push(...res.body.data.map((t: { key: string }) => t.key));
      cursor = res.body.pagination.next_cursor;
      if (!res.body.pagination.has_more) break;
    }
    expect(seen).toEqual(['LIST-1', 'LIST-2', 'LIST-3', 'LIST-4', 'LIST-5', 'LIST-6']);
  });

  it('a page past the end of the filtered set still counts it, and a filter matching nothing counts zero', async () => {
    const past = await h.request('GET', '/api/v1/projects/LIST/tasks/?limit=2&offset=10&priority=Low,High', {
      token: admin.token,
    });
    expect(past.body).toMatchObject({ data: [], pagination: { count: 4, limit: 2, offset: 10 } });
    const none = await h.request('GET', '/api/v1/projects/LIST/tasks/?priority=Nope', { token: admin.token });
    expect(none.body).toMatchObject({ data: [], pagination: { count: 0, limit: 50, offset: 0 } });
  });

  it('list items are full task JSON, labels sorted, same as a single read', async () => {
    const [first] = (await h.request('GET', '/api/v1/projects/LIST/tasks/?label=ui', { token: admin.token })).body.data;
    expect(first.labels).toEqual(['api', 'ui']);
    expect((await h.request('GET', '/api/v1/tasks/LIST-3/', { token: admin.token })).body.data).toEqual(first);
  });

  it("follow / unfollow are idempotent and act for the token's account; followers are paginated", async () => {
    const follow = await h.request('POST', '/api/v1/tasks/LIST-1/follow/', { token: dev.token });
    expect(follow.status).toBe(200);
    expect(follow.body.data).toEqual({
      task: 'LIST-1',
      user: dev.accountId,
      following: true,
      followed_at: expect.any(String),
    });
    h.clock.advance(1000);
    const again = await h.request('POST', '/api/v1/tasks/LIST-1/follow/', { token: dev.token });
    expect(again.body.data).toEqual(follow.body.data);
    await h.request('POST', '/api/v1/tasks/LIST-1/follow/', { token: admin.token });

    const followers = await h.request('GET', '/api/v1/tasks/LIST-1/followers/', { token: admin.token });
    expect(followers.body.data).toEqual([
      { user: dev.accountId, name: expect.any(String), kind: 'service', followed_at: follow.body.data.followed_at },
      { user: admin.accountId, name: expect.any(String), kind: 'service', followed_at: expect.any(String) },
    ]);
    expect(followers.body.pagination).toEqual({ count: 2, limit: 50, offset: 0 });
    const newest = await h.request('GET', '/api/v1/tasks/LIST-1/followers/?ordering=-followed_at&limit=1', {
      token: admin.token,
    });
    expect(newest.body.data[0].user).toBe(admin.accountId);

    expect((await h.request('DELETE', '/api/v1/tasks/LIST-1/follow/', { token: dev.token })).status).toBe(204);
    expect((await h.request('DELETE', '/api/v1/tasks/LIST-1/follow/', { token: dev.token })).status).toBe(204);
    const after = await h.request('GET', '/api/v1/tasks/LIST-1/followers/', { token: admin.token });
    expect(after.body.data.map((f: { user: number }) => f.user)).toEqual([admin.accountId]);
  });

  it('following is not a task change: no version bump, event or change record', async () => {
    const before = await h.request('GET', '/api/v1/tasks/LIST-2/', { token: admin.token });
    const outbox = (await events(h)).length;
    await h.request('POST', '/api/v1/tasks/LIST-2/follow/', { token: admin.token });
    const after = await h.request('GET', '/api/v1/tasks/LIST-2/', { token: admin.token });
    expect(after.headers.etag).toBe(before.headers.etag);
    expect((await events(h)).length).toBe(outbox);
  });
});
