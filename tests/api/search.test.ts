import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';

describe('search', () => {
  let h: TestHarness;
  let actor: Actor;

  const task = async (project: string, title: string, description = '', who = actor) => {
    const res = await h.request('POST', `/api/v1/projects/${project}/tasks/`, {
      token: who.token,
      body: { title, description },
    });
    expect(res.status).toBe(201);
    return res.body.data;
  };
  const search = (query: string, token = actor.token) => h.request('GET', `/api/v1/search/?${query}`, { token });
  const keys = (res: { body: { data: Array<{ key: string }> } }) => res.body.data.map((t) => t.key);

  beforeAll(async () => {
    h = await createHarness();
    actor = await h.actor();
    await h.project(actor, 'SRCH');
    await h.project(actor, 'OTHER');
    await task('SRCH', 'Fix login redirect', 'Users bounce back to the start page');
    await task('SRCH', 'Update footer', 'The login link in the footer is broken');
    await task('SRCH', 'Deploying the billing service', 'Runs nightly');
    await task('OTHER', 'Login audit', 'Review who can log in');
  });
  afterAll(() => h.close());

  it('finds tasks by a word in the description', async () => {
    const res = await search('q=bounce');
    expect(res.status).toBe(200);
    expect(keys(res)).toEqual(['SRCH-1']);
    expect(res.body.data[0]).toMatchObject({
      key: 'SRCH-1',
      title: 'Fix login redirect',
      project: 'SRCH',
      status: 'To Do',
    });
    expect(res.body.pagination).toEqual({ count: 1, limit: 50, offset: 0 });
  });

  it('ranks a title hit above a description hit', async () => {
    const res = await search('q=login&project=SRCH');
    expect(keys(res)).toEqual(['SRCH-1', 'SRCH-2']);
  });

  it('matches the last word as a prefix, and stems words', async () => {
    expect(keys(await search('q=redir'))).toEqual(['SRCH-1']);
    expect(keys(await search('q=deploy'))).toEqual(['SRCH-3']);
    expect(keys(await search('q=run'))).toEqual(['SRCH-3']);
  });

  it('every word must match', async () => {
    expect(keys(await search('q=login%20footer'))).toEqual(['SRCH-2']);
  });

  it('filters by project, status and assignee', async () => {
    expect(keys(await search('q=login&project=OTHER'))).toEqual(['OTHER-1']);
    expect(keys(await search('q=login&status=Done'))).toEqual([]);
    expect(keys(await search(`q=login&assignee=${actor.accountId}`))).toEqual([]);
    await h.request('POST', '/api/v1/tasks/SRCH-2/assign/', {
      token: actor.token,
      body: { assignee: actor.accountId },
    });
    expect(keys(await search(`q=login&assignee=${actor.accountId}`))).toEqual(['SRCH-2']);
  });

  it('follows updates and deletions in the same transaction', async () => {
    // Prefixes of 2 to 4 letters are answered from prefix entries on SQLite (migration 0017): those follow too.
    const found = async (...queries: string[]) => Promise.all(queries.map(async (q) => keys(await search(`q=${q}`))));
    const t = await task('SRCH', 'Temporary zebra');
    expect(await found('zebra', 'ze', 'zeb', 'zebr')).toEqual([[t.key], [t.key], [t.key], [t.key]]);
    await h.request('PUT', `/api/v1/tasks/${t.key}/`, { token: actor.token, body: { title: 'Temporary giraffe' } });
    expect(await found('zebra', 'ze', 'zebr')).toEqual([[], [], []]);
    expect(await found('giraffe', 'gi', 'gir', 'gira')).toEqual([[t.key], [t.key], [t.key], [t.key]]);
    await h.request('DELETE', `/api/v1/tasks/${t.key}/`, { token: actor.token });
    expect(await found('giraffe', 'gi', 'gira')).toEqual([[], [], []]);
  });

  it('only returns what the caller can see', async () => {
    const stranger = await h.actor();
    await h.project(stranger, 'SECRET');
    await task('SECRET', 'Login secret plans', '', stranger);
    expect(keys(await search('q=login'))).not.toContain('SECRET-1');
    expect(keys(await search('q=secret', stranger.token))).toEqual(['SECRET-1']);
    const restricted = await h.tokenFor(actor.accountId, ['tasks:read'], ['OTHER']);
    expect(keys(await search('q=login', restricted.token))).toEqual(['OTHER-1']);
  });

  it('counts only what the caller can see, whether it sees most projects or few of them', async () => {
    // The actor sees two projects of three (the stranger's is excluded), the stranger one of three.
    const stranger = await h.actor();
    await h.project(stranger, 'HIDDEN');
    await task('HIDDEN', 'Login hidden plans', 'login login', stranger);
    const mine = await search('q=login');
    expect(mine.body.pagination.count).toBe(keys(mine).length);
    expect(keys(mine).some((key: string) => key.startsWith('HIDDEN'))).toBe(false);
    const theirs = await search('q=login', stranger.token);
    expect(keys(theirs)).toEqual(['HIDDEN-1']);
    expect(theirs.body.pagination.count).toBe(1);
  });

  it('an empty q, or one with no words, is a 400', async () => {
    for (const q of ['q=', '', 'q=%22%2A%28%29']) {
      const res = await search(q);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('query syntax characters never produce a 500', async () => {
    const hostile = [
      '"login',
      'login*',
      '-login',
      'NEAR(login footer)',
      '(login',
      'login)',
      'a AND OR NOT',
      '^login',
      'col:login',
      'login & | !',
      "o'brien",
      '\u0000login',
      'ло гин',
      '🙂 login',
    ];
    for (const q of hostile) {
      const res = await search(`q=${encodeURIComponent(q)}`);
      expect([200, 400]).toContain(res.status);
    }
    expect(keys(await search(`q=${encodeURIComponent('"login" -footer*')}`))).toEqual(['SRCH-2']);
  });

  it('pagination and ordering work like any list', async () => {
    const page = await search('q=login&limit=1&offset=1&project=SRCH');
    expect(keys(page)).toEqual(['SRCH-2']);
    expect(page.body.pagination).toEqual({ count: 2, limit: 1, offset: 1 });
    expect(keys(await search('q=login&ordering=-key&project=SRCH'))).toEqual(['SRCH-2', 'SRCH-1']);
  });
});

describe("search rate limit: 60 per minute per token, independent of the token's own limits", () => {
  let h: TestHarness;
  afterAll(() => h.close());

  it('answers 429 RATE_LIMITED on the 61st search in a minute, while other endpoints still work', async () => {
    h = await createHarness({
      config: { rateLimit: { tokenBurst: 1000, tokenBurstWindowSeconds: 10, orgHourly: 100000, searchPerMinute: 60 } },
    });
    const actor = await h.actor();
    for (let i = 1; i <= 60; i++) {
      const res = await h.request('GET', '/api/v1/search/?q=anything', { token: actor.token });
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('60');
    }
    const limited = await h.request('GET', '/api/v1/search/?q=anything', { token: actor.token });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const other = await h.request('GET', '/api/v1/projects/', { token: actor.token });
    expect(other.status).toBe(200);
    expect(other.headers['ratelimit-limit']).toBe('1000');
    const second = await h.tokenFor(actor.accountId);
    expect((await h.request('GET', '/api/v1/search/?q=anything', { token: second.token })).status).toBe(200);
  });
});

describe('search relevance tiers: title matches first, then description matches', () => {
  let h: TestHarness;
  let actor: Actor;
  const keys = (res: { body: { data: Array<{ key: string }> } }) => res.body.data.map((t) => t.key);
  const search = (query: string) =>
    h.request('GET', `/api/v1/search/?q=quasar&project=TIER&${query}`, { token: actor.token });
  let tierProjectId: number;

  beforeAll(async () => {
    h = await createHarness();
    actor = await h.actor();
    tierProjectId = (await h.project(actor, 'TIER')).id;
    await h.project(actor, 'NOISE');
    // Title and description matches interleaved in creation order, plus one in another project.
    const tasks: Array<[string, string, string]> = [
      ['TIER', 'Quasar telescope', ''],
      ['TIER', 'Unrelated', 'mentions quasar once'],
      ['NOISE', 'Quasar elsewhere', ''],
      ['TIER', 'Calibrate quasar optics', 'quasar quasar quasar'],
      ['TIER', 'Mirror polish', 'the quasar mirror'],
      ['TIER', 'Quasars everywhere', ''],
      ['TIER', 'Dome motor', 'Quasar season'],
    ];
    for (const [project, title, description] of tasks) {
      const res = await h.request('POST', `/api/v1/projects/${project}/tasks/`, {
        token: actor.token,
        body: { title, description },
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => h.close());

  const ranked = ['TIER-5', 'TIER-3', 'TIER-1', 'TIER-6', 'TIER-4', 'TIER-2'];

  it('title matches first, then description-only matches, newest first within each tier', async () => {
    const res = await search('');
    expect(keys(res)).toEqual(ranked);
    expect(res.body.pagination).toEqual({ count: 6, limit: 50, offset: 0 });
  });

  it('offset pages cut across the tiers without gaps or repeats', async () => {
    for (const limit of [1, 2, 4]) {
      const seen: string[] = [];
      for (let offset = 0; offset < 8; offset += limit) {
        const res = await search(`limit=${limit}&offset=${offset}`);
        expect(res.body.pagination).toEqual({ count: 6, limit, offset });
        seen.push(...keys(res));
      }
      expect(seen).toEqual(ranked);
    }
  });

  it('ascending relevance, other orderings and cursor mode see the same matches', async () => {
    expect(keys(await search('ordering=relevance'))).toEqual([
      'TIER-2',
      'TIER-4',
      'TIER-6',
      'TIER-1',
      'TIER-3',
      'TIER-5',
    ]);
    expect(keys(await search('ordering=-key'))).toEqual(['TIER-6', 'TIER-5', 'TIER-4', 'TIER-3', 'TIER-2', 'TIER-1']);
    const first = await search('cursor=&limit=4');
    expect(keys(first)).toEqual(['TIER-1', 'TIER-2', 'TIER-3', 'TIER-4']);
    const second = await search(`cursor=${first.body.pagination.next_cursor}&limit=4`);
    expect(keys(second)).toEqual(['TIER-5', 'TIER-6']);
    expect(second.body.pagination.has_more).toBe(false);
  });

  it('a filter on a task column keeps the tiers', async () => {
    await h.request('POST', '/api/v1/tasks/TIER-4/assign/', {
      token: actor.token,
      body: { assignee: actor.accountId },
    });
    await h.request('POST', '/api/v1/tasks/TIER-3/assign/', {
      token: actor.token,
      body: { assignee: actor.accountId },
    });
    const res = await search(`assignee=${actor.accountId}&limit=1&offset=1`);
    expect(keys(res)).toEqual(['TIER-4']);
    expect(res.body.pagination).toEqual({ count: 2, limit: 1, offset: 1 });
  });

  it('a project the caller cannot see is an empty result, not an error', async () => {
    const res = await h.request('GET', '/api/v1/search/?q=quasar&project=NOPE', { token: actor.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: [], pagination: { count: 0 } });
  });

  it('project ids in the index never match the words searched for', async () => {
    const res = await h.request('GET', `/api/v1/search/?q=${tierProjectId}`, { token: actor.token });
    expect(res.status).toBe(200);
    expect(keys(res)).toEqual([]);
  });
});
