import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';

describe('search (spec 4.2 Search, 8; API-DECISIONS Search)', () => {
  let h: TestHarness;
  let actor: Actor;

  const task = async (project: string, title: string, description = '', who = actor) => {
    const res = await h.request('POST', `/api/v1/projects/${project}/tasks/`, { token: who.token, body: { title, description } });
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
    expect(res.body.data[0]).toMatchObject({ key: 'SRCH-1', title: 'Fix login redirect', project: 'SRCH', status: 'To Do' });
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
    await h.request('POST', '/api/v1/tasks/SRCH-2/assign/', { token: actor.token, body: { assignee: actor.accountId } });
    expect(keys(await search(`q=login&assignee=${actor.accountId}`))).toEqual(['SRCH-2']);
  });

  it('follows updates and deletions in the same transaction', async () => {
    const t = await task('SRCH', 'Temporary zebra');
    expect(keys(await search('q=zebra'))).toEqual([t.key]);
    await h.request('PUT', `/api/v1/tasks/${t.key}/`, { token: actor.token, body: { title: 'Temporary giraffe' } });
    expect(keys(await search('q=zebra'))).toEqual([]);
    expect(keys(await search('q=giraffe'))).toEqual([t.key]);
    await h.request('DELETE', `/api/v1/tasks/${t.key}/`, { token: actor.token });
    expect(keys(await search('q=giraffe'))).toEqual([]);
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

  it('an empty q, or one with no words, is a 400', async () => {
    for (const q of ['q=', '', 'q=%22%2A%28%29']) {
      const res = await search(q);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('query syntax characters never produce a 500', async () => {
    const hostile = ['"login', 'login*', '-login', 'NEAR(login footer)', '(login', 'login)', 'a AND OR NOT', '^login', 'col:login', 'login & | !', "o'brien", '\u0000login', 'ло гин', '🙂 login'];
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

describe('search rate limit (spec 8: 60 per minute per token, independent of the token\'s own limits)', () => {
  let h: TestHarness;
  afterAll(() => h.close());

  it('answers 429 RATE_LIMITED on the 61st search in a minute, while other endpoints still work', async () => {
    h = await createHarness({ config: { rateLimit: { tokenBurst: 1000, tokenBurstWindowSeconds: 10, orgHourly: 100000, searchPerMinute: 60 } } });
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
