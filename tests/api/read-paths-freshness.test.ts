import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { deleteMembershipRows } from '../helpers/storage.ts';

/**
 * The hot read paths tuned for bench/ (GET a task in one query, the project-scoped label filter,
 * search's separate count) honour a removed membership on the next request, even one removed by
 * a direct database write: the visible projects they reuse are dropped as soon as the auth epoch
 * moves (auth-cache.ts; more cases in auth-cache.test.ts).
 */
describe('read paths honour access changes immediately', () => {
  let h: TestHarness;
  let owner: Actor;
  let member: Actor;

  beforeAll(async () => {
    h = await createHarness();
    owner = await h.actor();
    member = await h.actor({ org: owner.org, role: 'member' });
    await h.project(owner, 'FRESH');
    expect(
      (await h.request('POST', '/api/v1/projects/FRESH/labels/', { token: owner.token, body: { name: 'bug' } })).status,
    ).toBe(201);
    const created = await h.request('POST', '/api/v1/projects/FRESH/tasks/', {
      token: owner.token,
      body: { title: 'Zebra crossing', labels: ['bug'] },
    });
    expect(created.status).toBe(201);
    await h.addMember('FRESH', member.accountId, 'member');
  });
  afterAll(() => h.close());

  const reads = async (token: string) => ({
    task: (await h.request('GET', '/api/v1/tasks/FRESH-1/', { token })).status,
    list: await h.request('GET', '/api/v1/projects/FRESH/tasks/?label=bug', { token }),
    search: await h.request('GET', '/api/v1/search/?q=zebra', { token }),
  });

  it('a member reads the task, the label-filtered list and the search hit; once removed, none of them on the next request', async () => {
    const before = await reads(member.token);
    expect(before.task).toBe(200);
    expect(before.list.body.data.map((t: { key: string }) => t.key)).toEqual(['FRESH-1']);
    expect(before.search.body.data.map((t: { key: string }) => t.key)).toEqual(['FRESH-1']);
    expect(before.search.body.pagination.count).toBe(1);

    await deleteMembershipRows(h, member.accountId);

    const after = await reads(member.token);
    expect(after.task).toBe(404);
    expect(after.list.status).toBe(404);
    expect(after.search.status).toBe(200);
    expect(after.search.body.data).toEqual([]);
    expect(after.search.body.pagination.count).toBe(0);
  });

  it("the label filter counts only the project's own label of that name", async () => {
    await h.project(owner, 'OTHER');
    await h.request('POST', '/api/v1/projects/OTHER/labels/', { token: owner.token, body: { name: 'bug' } });
    await h.request('POST', '/api/v1/projects/OTHER/tasks/', {
      token: owner.token,
      body: { title: 'Other bug', labels: ['bug'] },
    });
    const res = await h.request('GET', '/api/v1/projects/FRESH/tasks/?label=bug', { token: owner.token });
    expect(res.body.data.map((t: { key: string }) => t.key)).toEqual(['FRESH-1']);
    expect(res.body.pagination.count).toBe(1);
  });
});
