import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHarness, type TestHarness } from '../helpers/harness.ts';

// A pass-through spy, to see that the METRICS_TOKEN check goes through timingSafeEqual.
vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) };
});
const { timingSafeEqual } = await import('node:crypto');

describe('/metrics behind METRICS_TOKEN', () => {
  const TOKEN = 'metrics-secret-0123456789';
  let h: TestHarness;

  beforeAll(async () => {
    h = await createHarness({ config: { metricsToken: TOKEN } });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    vi.mocked(timingSafeEqual).mockClear();
  });

  it('answers only the exact bearer token, comparing it in constant time', async () => {
    const ok = await h.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('http_requests_total');
    expect(timingSafeEqual).toHaveBeenCalledTimes(1);

    for (const authorization of [
      undefined,
      '',
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.toUpperCase()}`,
      TOKEN,
      'Bearer',
    ]) {
      const res = await h.request('GET', '/metrics', { headers: authorization === undefined ? {} : { authorization } });
      expect([res.status, res.body?.error?.code], String(authorization)).toEqual([401, 'UNAUTHENTICATED']);
    }
    expect(timingSafeEqual).toHaveBeenCalledTimes(8);
  });
});
