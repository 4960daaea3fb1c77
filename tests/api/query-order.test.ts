import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERGED_PROJECTS_MAX } from '../../src/modules/query/query.repository.ts';
import { type Actor, createHarness, type TestHarness } from '../helpers/harness.ts';

/**
 * The order of GET /api/v1/tasks/?q= offset pages, cut in SQL per project and merged: ties of
 * `created` across projects by project key (here not the order the projects were made in),
 * then number; priorities in each project's own order; later pages; cursor pages by id; and
 * the one-statement form taken over many projects.
 */
describe('GET /api/v1/tasks/?q=: the order of pages across projects', () => {
  let h: TestHarness;
  let caller: Actor;
  beforeAll(async () => {
    h = await createHarness();
    caller = await h.actor();
    // ZB is made first, so its id is the lower one; keys sort AA first.
    for (const key of ['ZB', 'AA']) {
      const project = await h.project(caller, key);
      // AA lists Low, Medium, High, Urgent; ZB High, Medium, Low, Urgent.
      const order = key === 'AA' ? ['Low', 'Medium', 'High', 'Urgent'] : ['High', 'Medium', 'Low', 'Urgent'];
      for (const [position, name] of order.entries())
        await h.ctx.db
          .updateTable('priorities')
          .set({ position: position + 1 })
          .where('project_id', '=', project.id)
          .where('name', '=', name)
          .execute();
    }
    const create = async (key: string, title: string, priority: string, mine: boolean) => {
      const res = await h.request('POST', `/api/v1/projects/${key}/tasks/`, {
        token: caller.token,
        body: { title, priority, ...(mine ? { assignee: caller.accountId } : {}) },
      });
      expect(res.status, res.text).toBe(201);
    };
    // In id order ZB-1, AA-1, ZB-2, AA-2, AA-3, ZB-3; the first four made at one instant, the others an hour later.
    await create('ZB', 'alpha one', 'High', true);
    await create('AA', 'alpha one', 'Low', true);
    await create('ZB', 'beta two', 'Low', false);
    await create('AA', 'beta two', 'High', false);
    await create('AA', 'alpha three', 'Medium', false);
    await create('ZB', 'gamma three', 'Medium', true);
    const at = (created: string, keys: string[]) =>
      h.ctx.db.updateTable('tasks').set({ created_at: created }).where('key', 'in', keys).execute();
    await at('2026-11-21T09:00:00.000000Z', ['ZB-1', 'AA-1', 'ZB-2', 'AA-2']);
    await at('2026-11-21T10:00:00.000000Z', ['AA-3', 'ZB-3']);
  });
  afterAll(() => h.close());

  async function page(q: string, params = '', token = caller.token) {
    const res = await h.request('GET', `/api/v1/tasks/?q=${encodeURIComponent(q)}${params}`, { token });
    expect(res.status, res.text).toBe(200);
    return { keys: res.body.data.map((t: { key: string }) => t.key) as string[], pagination: res.body.pagination };
  }
  const keys = async (q: string, params = '') => (await page(q, params)).keys;

  /** Every offset page of `limit` in turn, joined: each page cut on its own must continue the last. */
  async function pages(q: string, limit: number): Promise<string[]> {
    const all: string[] = [];
    for (let n = 1; n <= 10; n++) {
      const { keys: got, pagination } = await page(q, `&limit=${limit}&page=${n}`);
      expect(pagination).toEqual({ count: 6, limit, offset: (n - 1) * limit });
      if (!got.length) break;
      all.push(...got);
    }
    return all;
  }

  const NEWEST_FIRST = ['AA-3', 'ZB-3', 'AA-1', 'AA-2', 'ZB-1', 'ZB-2'];
  const PRIORITY_DESC = ['AA-2', 'ZB-2', 'AA-3', 'ZB-3', 'AA-1', 'ZB-1'];

  it('breaks ties of created by project key, then number, on every page', async () => {
    expect(await keys('')).toEqual(NEWEST_FIRST);
    expect(await pages('', 2)).toEqual(NEWEST_FIRST);
    expect(await pages('', 4)).toEqual(NEWEST_FIRST);
    expect(await keys('ORDER BY created')).toEqual(['AA-1', 'AA-2', 'ZB-1', 'ZB-2', 'AA-3', 'ZB-3']);
    expect(await keys('ORDER BY created DESC, key DESC')).toEqual(['ZB-3', 'AA-3', 'ZB-2', 'ZB-1', 'AA-2', 'AA-1']);
    expect(await keys('ORDER BY project DESC')).toEqual(['ZB-1', 'ZB-2', 'ZB-3', 'AA-1', 'AA-2', 'AA-3']);
  });

  it("sorts priorities by each project's own order across projects", async () => {
    expect(await keys('ORDER BY priority DESC')).toEqual(PRIORITY_DESC);
    expect(await pages('ORDER BY priority DESC', 2)).toEqual(PRIORITY_DESC);
    expect(await keys('ORDER BY priority, key DESC')).toEqual(['ZB-1', 'AA-1', 'ZB-3', 'AA-3', 'ZB-2', 'AA-2']);
  });

  it('keeps the order for my work, words and a restricted token', async () => {
    expect(await keys('assignee = me()')).toEqual(['ZB-3', 'AA-1', 'ZB-1']);
    expect((await page('assignee = me()', '&limit=1&page=2')).keys).toEqual(['AA-1']);
    expect(await keys('text ~ alpha')).toEqual(['AA-3', 'AA-1', 'ZB-1']);
    expect(await keys('title !~ alpha')).toEqual(['ZB-3', 'AA-2', 'ZB-2']);
    const restricted = await h.tokenFor(caller.accountId, ['tasks:read'], ['ZB']);
    expect((await page('', '', restricted.token)).keys).toEqual(['ZB-3', 'ZB-1', 'ZB-2']);
  });

  it('walks cursor pages in id order, whatever the ORDER BY', async () => {
    const walked: string[] = [];
    let cursor = '';
    for (let i = 0; i < 5; i++) {
      const { keys: got, pagination } = await page('ORDER BY priority DESC', `&limit=4&cursor=${cursor}`);
      walked.push(...got);
      if (!pagination.has_more) break;
      cursor = pagination.next_cursor;
    }
    expect(walked).toEqual(['ZB-1', 'AA-1', 'ZB-2', 'AA-2', 'AA-3', 'ZB-3']);
  });

  it('keeps the same order over more projects than one statement merges', async () => {
    for (let i = 0; i < MERGED_PROJECTS_MAX; i++) await h.project(caller, `M${i}`);
    expect(await keys('')).toEqual(NEWEST_FIRST);
    expect(await pages('', 2)).toEqual(NEWEST_FIRST);
    expect(await pages('ORDER BY priority DESC', 4)).toEqual(PRIORITY_DESC);
    expect(await keys('assignee = me()')).toEqual(['ZB-3', 'AA-1', 'ZB-1']);
  });
});
