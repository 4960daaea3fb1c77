import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';

describe('search reaches the first 1,000 matches of an offset walk', () => {
  let h: TestHarness;
  let actor: Actor;
  const search = (query: string) => h.request('GET', `/api/v1/search/?${query}`, { token: actor.token });
  const keys = (res: { body: { data: Array<{ key: string }> } }) => res.body.data.map((t) => t.key);

  beforeAll(async () => {
    h = await createHarness();
    actor = await h.actor();
    await h.project(actor, 'REACH');
    // REACH-1..600 match in their title, REACH-601..1100 through their description only.
    for (let start = 1; start <= 1100; start += 100) {
      const tasks = Array.from({ length: 100 }, (_, i) =>
        start + i <= 600
          ? { title: `Summit ${start + i}`, description: 'plain' }
          : { title: `Plain ${start + i}`, description: 'on the way to the summit' },
      );
      const res = await h.request('POST', '/api/v1/projects/REACH/tasks/bulk/', {
        token: actor.token,
        body: { tasks },
      });
      expect(res.status, res.text).toBe(201);
    }
  }, 120_000);
  afterAll(() => h.close());

  it('counts at most 1,000 matches', async () => {
    const res = await search('q=summit&limit=3');
    expect(keys(res)).toEqual(['REACH-600', 'REACH-599', 'REACH-598']);
    expect(res.body.pagination).toEqual({ count: 1000, limit: 3, offset: 0 });
  });

  it('cuts the page that crosses the 1,000th match, in relevance order', async () => {
    // 600 title matches, then description matches newest first: the 996th match is REACH-705.
    const res = await search('q=summit&offset=995&limit=10');
    expect(keys(res)).toEqual(['REACH-705', 'REACH-704', 'REACH-703', 'REACH-702', 'REACH-701']);
    expect(res.body.pagination).toEqual({ count: 1000, limit: 10, offset: 995 });
  });

  it('cuts it in any other ordering too', async () => {
    const res = await search('q=summit&ordering=key&offset=997&limit=10');
    expect(keys(res)).toEqual(['REACH-998', 'REACH-999', 'REACH-1000']);
    expect(res.body.pagination).toEqual({ count: 1000, limit: 10, offset: 997 });
  });

  it('answers an empty page past it', async () => {
    const res = await search('q=summit&offset=1000&limit=10');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination).toEqual({ count: 1000, limit: 10, offset: 1000 });
  });

  it('counts exactly below it', async () => {
    expect((await search('q=summit 600')).body.pagination).toEqual({ count: 1, limit: 50, offset: 0 });
    expect((await search('q=plain 1100')).body.pagination.count).toBe(1);
  });

  it('does not limit a cursor walk', async () => {
    const seen: string[] = [];
    let cursor = '';
    for (let page = 0; page < 10; page++) {
      const res = await search(`q=summit&limit=200&cursor=${cursor}`);
      seen.push(...keys(res));
      if (!res.body.pagination.has_more) break;
      cursor = res.body.pagination.next_cursor;
    }
    expect(seen).toHaveLength(1100);
    expect(new Set(seen).size).toBe(1100);
  });
});
