import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';

// A query (`q`) runs through indexes like any list, so it spends the ordinary budget,
// never the search tier's (which guards /search/'s ranked full-text reads).
describe('q does not count against the search rate limit', () => {
  let h: TestHarness;
  let actor: Actor;

  beforeAll(async () => {
    h = await createHarness({
      config: {
        rateLimit: {
          tokenBurst: 50,
          tokenBurstWindowSeconds: 10,
          orgHourly: 1000,
          accountHourlySharePercent: 100,
          searchPerMinute: 2,
        },
      },
    });
    actor = await h.actor();
    await h.project(actor, 'QRL');
    const task = await h.request('POST', '/api/v1/projects/QRL/tasks/', {
      token: actor.token,
      body: { title: 'login timeout on the mail server' },
    });
    expect(task.status).toBe(201);
  });
  afterAll(() => h.close());

  it('answers every q with the ordinary budget, and leaves the search budget whole', async () => {
    const view = await h.request('POST', '/api/v1/views/', {
      token: actor.token,
      body: { name: 'Timeouts', query: 'text ~ "login timeout"' },
    });
    expect(view.status, view.text).toBe(201);
    const q = encodeURIComponent('text ~ "login timeout" AND status_category != done');
    const reads = [
      `/api/v1/tasks/?q=${q}`,
      `/api/v1/projects/QRL/tasks/?q=${q}`,
      `/api/v1/changes/tasks/?q=${q}`,
      `/api/v1/views/${view.body.data.id}/tasks/`,
    ];
    // More q reads than the search tier allows in a minute, each on the burst tier's count.
    for (const url of [...reads, ...reads]) {
      const res = await h.request('GET', url, { token: actor.token });
      expect(res.status, `${url}: ${res.text}`).toBe(200);
      expect(res.headers['ratelimit-limit'], url).toBe('50');
    }
    expect((await h.request('GET', `/api/v1/tasks/?q=${q}`, { token: actor.token })).body.data).toEqual([
      expect.objectContaining({ key: 'QRL-1' }),
    ]);

    // The search tier still has both of its requests, and refuses the third.
    const search = () => h.request('GET', '/api/v1/search/?q=login', { token: actor.token });
    const first = await search();
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('2');
    expect(first.headers['ratelimit-remaining']).toBe('1');
    expect((await search()).status).toBe(200);
    const refused = await search();
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(refused.body.error.details.limit).toBe(2);

    // With search spent, q still answers.
    expect((await h.request('GET', `/api/v1/tasks/?q=${q}`, { token: actor.token })).status).toBe(200);
  });
});
