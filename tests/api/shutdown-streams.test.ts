import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processUrl } from '../helpers/database.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { openLive } from '../helpers/live.ts';
import { person, type Browser } from '../helpers/people.ts';
import { startServe, type ServiceProcess } from '../helpers/processes.ts';

/**
 * An open live stream (any browser tab) must not hold a shutdown to its deadline: streams end
 * as draining starts, so `serve` stops without cutting anything off.
 */
describe('shutdown with live streams open', { timeout: 180_000 }, () => {
  let h: TestHarness;
  let ann: Browser & { org: string };

  beforeAll(async () => {
    h = await createHarness();
    ann = await person(h);
  });
  afterAll(() => h.close());

  it('ends the streams first: nothing is logged as cut off, and the process exits cleanly', async () => {
    const serve = await startServe({ DATABASE_URL: processUrl(h.ctx.database), SHUTDOWN_TIMEOUT_SECONDS: '30' });
    try {
      const streams = await within(
        serve,
        Promise.all([1, 2].map(() => openLive(serve.baseUrl, { headers: { cookie: ann.cookie } }))),
        'the streams to open',
      );
      for (const stream of streams) {
        expect(stream.status).toBe(200);
        await stream.waitFor((e) => e.event === 'ready');
      }
      const exitCode = serve.stop();
      await within(serve, Promise.all(streams.map((stream) => stream.ended)), 'the streams to end');
      const code = await within(serve, exitCode, 'the process to exit');
      expect(code, logOf(serve)).toBe(0);

      const messages = serve.lines().map((line) => String(line.msg));
      expect(messages).toContain('shutting down: draining in-flight requests');
      expect(messages).toContain('stopped');
      expect(messages.filter((message) => /cut off|exiting/.test(message))).toEqual([]);
      expect(serve.stderr).toEqual([]);
    } finally {
      await serve.stop();
    }
  });
});

/** `promise`, or a failure that shows the process's log if it takes longer than a minute. */
function within<T>(service: ServiceProcess, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`waited a minute for ${what}; log:\n${logOf(service)}`)), 60_000);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const logOf = (service: ServiceProcess) => [...service.stdout, ...service.stderr].join('\n');
