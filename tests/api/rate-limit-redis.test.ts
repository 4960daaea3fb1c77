import net, { type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { capturedLog, type CapturedLog } from '../helpers/log.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { startProxy, type ClosableProxy } from '../helpers/proxy.ts';

/**
 * With REDIS_URL set and Redis unreachable, rate limits fall back to counters in the process:
 * requests go on, /readyz says so, and the log gets one structured line when Redis is lost and
 * one when it is back, never ioredis' raw "[ioredis] Unhandled error event" per retry.
 */
const lost = (line: Record<string, unknown>) => line.event === 'rate_limit_redis_connection_lost';
const restored = (line: Record<string, unknown>) => line.event === 'rate_limit_redis_connection_restored';

describe('rate limits when Redis is unreachable', { timeout: 60_000 }, () => {
  let consoleError: MockInstance;
  let h: TestHarness | undefined;
  let log: CapturedLog;

  beforeEach(() => {
    consoleError = vi.spyOn(console, 'error');
    log = capturedLog();
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    consoleError.mockRestore();
  });

  async function harness(redisUrl: string): Promise<{ h: TestHarness; actor: Actor }> {
    h = await createHarness({ config: { redisUrl }, logTo: log.stream });
    return { h, actor: await h.actor() };
  }

  async function readyz(h: TestHarness) {
    const res = await h.request('GET', '/readyz');
    expect(res.status).toBe(200);
    return res.body.rate_limits as string;
  }

  /** Requests are answered and counted (locally while Redis is away). */
  async function requestsWork(h: TestHarness, actor: Actor, times = 5) {
    for (let i = 0; i < times; i++) {
      const res = await h.request('GET', '/api/v1/projects/', { token: actor.token });
      expect(res.status).toBe(200);
      expect(Number(res.headers['ratelimit-remaining'])).toBeGreaterThan(0);
    }
  }

  it('a closed port: one structured line, requests answered, /readyz says the counters are local', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));

    const { h, actor } = await harness(`redis://127.0.0.1:${port}`);
    expect(await log.waitFor(lost)).toMatchObject({ level: 40, code: 'ECONNREFUSED' });
    await requestsWork(h, actor);
    expect(await readyz(h)).toBe('memory_fallback');
    expect(log.lines.filter(lost)).toHaveLength(1);
    expect(consoleError.mock.calls.flat().filter((arg) => String(arg).includes('[ioredis]'))).toEqual([]);
  });

  it('a server that drops every connection: one line however many retries', async () => {
    let attempts = 0;
    let enough!: () => void;
    const retried = new Promise<void>((resolve) => (enough = resolve));
    const dropping = net.createServer((socket) => {
      socket.destroy();
      if (++attempts === 6) enough();
    });
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    try {
      const { h, actor } = await harness(`redis://127.0.0.1:${(dropping.address() as AddressInfo).port}`);
      await retried;
      await requestsWork(h, actor);
      expect(await readyz(h)).toBe('memory_fallback');
      expect(log.lines.filter(lost)).toHaveLength(1);
      expect(log.lines.filter(restored)).toHaveLength(0);
      expect(consoleError.mock.calls.flat().filter((arg) => String(arg).includes('[ioredis]'))).toEqual([]);
    } finally {
      await h?.close();
      h = undefined;
      await new Promise((resolve) => dropping.close(resolve));
    }
  });

  it('a real Redis that goes away and comes back: shared, then local, then shared again, two lines', async () => {
    let proxy: ClosableProxy | undefined;
    try {
      proxy = await startProxy({ hostname: '127.0.0.1', port: 6379 });
      const { h, actor } = await harness(`redis://127.0.0.1:${proxy.port}`);
      await until(async () => (await readyz(h)) === 'redis');
      await requestsWork(h, actor);

      proxy.down();
      await log.waitFor(lost);
      await requestsWork(h, actor);
      expect(await readyz(h)).toBe('memory_fallback');

      proxy.up();
      await log.waitFor(restored);
      expect(await readyz(h)).toBe('redis');
      await requestsWork(h, actor);
      expect(log.lines.filter(lost)).toHaveLength(1);
      expect(log.lines.filter(restored)).toHaveLength(1);
      expect(consoleError.mock.calls.flat().filter((arg) => String(arg).includes('[ioredis]'))).toEqual([]);
    } finally {
      await h?.close();
      h = undefined;
      await proxy?.close();
    }
  });
});

/** Polls `check` until it holds (Redis' first connection is made in the background). */
async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
