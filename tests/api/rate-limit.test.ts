import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';

describe('rate limits: per-token burst, per-organization sustained, search', () => {
  let h: TestHarness;
  let actor: Actor;

  beforeAll(async () => {
    // Every token may use the whole organization budget here; the fair share has its own test below.
    h = await createHarness({
      config: {
        rateLimit: {
          tokenBurst: 5,
          tokenBurstWindowSeconds: 10,
          orgHourly: 8,
          accountHourlySharePercent: 100,
          searchPerMinute: 60,
        },
      },
    });
    actor = await h.actor();
  });
  afterAll(() => h.close());

  it('defaults: 100 per 10 s per token, 5,000 per hour per organization, search 60 per minute', () => {
    expect(loadConfig({}).rateLimit).toEqual({
      tokenBurst: 100,
      tokenBurstWindowSeconds: 10,
      orgHourly: 5000,
      accountHourlySharePercent: 20,
      searchPerMinute: 60,
    });
    expect(loadConfig({ RATE_LIMIT_TOKEN_BURST: '7' }).rateLimit.tokenBurst).toBe(7);
    expect(() => loadConfig({ RATE_LIMIT_ORG_HOURLY: 'lots' })).toThrow(/RATE_LIMIT_ORG_HOURLY/);
  });

  it('every authenticated response carries RateLimit-* headers; the burst tier answers 429 RATE_LIMITED with Retry-After', async () => {
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await h.request('GET', '/api/v1/projects/', { token: actor.token });
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('5');
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
      remaining.push(Number(res.headers['ratelimit-remaining']));
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const limited = await h.request('GET', '/api/v1/projects/', { token: actor.token });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(10);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
  });

  it('the burst tier is per token; the sustained tier is shared by the organization', async () => {
    const second = await h.tokenFor(actor.accountId);
    // The organization has spent 5 of its 8 (the refused request never reached the organization tier).
    for (let i = 0; i < 3; i++) {
      const res = await h.request('GET', '/api/v1/projects/', { token: second.token });
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-remaining']).toBe(String(Math.min(2 - i, 4 - i)));
    }
    const c = await h.request('GET', '/api/v1/projects/', { token: second.token });
    expect(c.status).toBe(429);
    expect(c.body.error.details.limit).toBe(8);
  });

  it('other organizations are unaffected', async () => {
    const other = await h.actor();
    expect((await h.request('GET', '/api/v1/projects/', { token: other.token })).status).toBe(200);
  });

  it('unauthenticated requests are refused before rate limiting and carry no RateLimit headers', async () => {
    const res = await h.request('GET', '/api/v1/projects/');
    expect(res.status).toBe(401);
    expect(res.headers['ratelimit-limit']).toBeUndefined();
  });
});
