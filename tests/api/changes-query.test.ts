import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLabel, createTask } from '../helpers/factory.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';

/** GET /api/v1/changes/tasks/?q= (docs/api/changes-feed.md, "Filtered by a query"). */
describe('changes feed filtered by a query', () => {
  let h: TestHarness;
  let admin: Actor;
  let reader: Actor;
  const Q = encodeURIComponent('label = bug AND status_category = todo');

  const feed = (query: string, token = reader.token) => h.request('GET', `/api/v1/changes/tasks/${query}`, { token });
  const put = async (key: string, body: Record<string, unknown>) => {
    const res = await h.request('PUT', `/api/v1/tasks/${key}/`, { token: admin.token, body });
    expect(res.status, res.text).toBe(200);
  };

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor({ role: 'admin' });
    reader = await h.actor({ org: admin.org, role: 'member' });
    await h.project(admin, 'CQ');
    await h.project(admin, 'HID');
    await h.addMember('CQ', reader.accountId, 'viewer');
    await addLabel(h, 'CQ', 'bug');
    await addLabel(h, 'HID', 'bug');
  });
  afterAll(() => h.close());

  it('lists changes of matching tasks and one `left` change when a task stops matching', async () => {
    const a = (await createTask(h, admin, 'CQ', { title: 'a', labels: ['bug'] })).key;
    const b = (await createTask(h, admin, 'CQ', { title: 'b' })).key;
    await createTask(h, admin, 'HID', { title: 'hidden bug', labels: ['bug'] });
    await put(b, { title: 'b2' });
    await put(b, { labels: ['bug'] });
    // Compaction may have removed A's earlier records: each record tells what A was before it.
    await h.ctx.db.deleteFrom('task_changes').where('task_key', '=', a).execute();
    await put(a, { status: 'In Progress' });
    await put(a, { title: 'a2' });
    const deleted = await h.request('DELETE', `/api/v1/tasks/${b}/`, { token: admin.token });
    expect(deleted.status).toBe(204);

    const res = await feed(`?q=${Q}`);
    expect(res.status, res.text).toBe(200);
    const changes = res.body.data.changes as Array<Record<string, unknown>>;
    expect(changes.map((c) => `${c.action} ${c.key}`)).toEqual([`updated ${b}`, `left ${a}`, `deleted ${b}`]);
    expect(changes[0]).toMatchObject({ task: { key: b, labels: ['bug'] } });
    expect(Object.keys(changes[1]!).sort()).toEqual(['action', 'changed_at', 'id', 'key']);
    expect(changes[2]).not.toHaveProperty('task');
    expect(res.body.pagination).toEqual({ limit: 50, next_cursor: expect.any(String), has_more: false });

    // A walk one change per page sees the same changes.
    const walked: string[] = [];
    let cursor = '';
    for (;;) {
      const page = await feed(`?q=${Q}&limit=1&cursor=${cursor}`);
      expect(page.status, page.text).toBe(200);
      walked.push(...page.body.data.changes.map((c: Record<string, unknown>) => `${c.action} ${c.key}`));
      cursor = page.body.pagination.next_cursor;
      if (!page.body.pagination.has_more) break;
    }
    expect(walked).toEqual(changes.map((c) => `${c.action} ${c.key}`));
  });

  it('reads names in the projects the caller sees only, and me() is the caller', async () => {
    const mine = (await createTask(h, admin, 'CQ', { title: 'mine', assignee: null })).key;
    await h.addMember('CQ', reader.accountId, 'member');
    await put(mine, { assignee: reader.accountId });
    const res = await feed(`?q=${encodeURIComponent('assignee = me() AND project = HID OR key = ' + mine)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.changes.map((c: Record<string, unknown>) => `${c.action} ${c.key}`)).toEqual([
      `created ${mine}`,
      `updated ${mine}`,
    ]);
    const assigned = await feed(`?q=${encodeURIComponent('assignee = me()')}`);
    expect(assigned.body.data.changes.map((c: Record<string, unknown>) => `${c.action} ${c.key}`)).toEqual([
      `updated ${mine}`,
    ]);
  });

  it('a query that cannot be run is 400 INVALID_QUERY with its position', async () => {
    const res = await feed(`?q=${encodeURIComponent('label = bug AND stauts = Done')}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'INVALID_QUERY',
      message: "unknown field 'stauts' at 16; did you mean 'status'?",
      details: { position: 16 },
    });
    const tz = await feed(`?q=${encodeURIComponent('due < today()')}&tz=Mars/Olympus`);
    expect(tz.status).toBe(400);
  });
});
