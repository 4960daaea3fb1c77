import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processUrl } from '../helpers/database.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { startServe } from '../helpers/processes.ts';

/** `serve --api-only` (or SERVE_ROLE=api): the API without the worker, for N API processes next to M workers. */
describe('serve without the worker', { timeout: 120_000 }, () => {
  let h: TestHarness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  const messages = (lines: Array<Record<string, unknown>>) => lines.map((l) => l.msg);
  const API_ONLY =
    'serving the API only: deliveries, notifications, the scheduler and retention need a `tasktracker worker` process';

  for (const [how, args, env] of [
    ['--api-only', ['serve', '--api-only'], {}],
    ['SERVE_ROLE=api', ['serve'], { SERVE_ROLE: 'api' }],
  ] as const) {
    it(`${how}: answers requests and starts no worker`, async () => {
      const server = await startServe({ DATABASE_URL: processUrl(h.ctx.database), ...env }, [...args]);
      try {
        await server.waitForLine((l) => l.msg === API_ONLY);
        const ready = await fetch(`${server.baseUrl}/readyz`);
        expect(ready.status).toBe(200);
        expect(await ready.json()).toEqual({ status: 'ok', rate_limits: 'memory' });
        expect(messages(server.lines())).not.toContain('worker started');
        expect(await server.stop()).toBe(0);
        expect(messages(server.lines())).toContain('stopped');
      } finally {
        await server.stop();
      }
    });
  }

  it('serve alone still runs the worker', async () => {
    const server = await startServe({ DATABASE_URL: processUrl(h.ctx.database), SERVE_ROLE: 'all' });
    try {
      await server.waitForLine((l) => l.msg === 'worker started');
      expect(messages(server.lines())).not.toContain(API_ONLY);
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    } finally {
      // Killed, not stopped: on PostgreSQL a SIGTERM in the first moments of the worker's first
      // passes can wait past this test's deadline, which is not what this test is about.
      server.proc.kill('SIGKILL');
    }
  });

  it('refuses an unknown SERVE_ROLE', async () => {
    await expect(startServe({ DATABASE_URL: processUrl(h.ctx.database), SERVE_ROLE: 'worker' })).rejects.toThrow(
      'SERVE_ROLE must be all or api, got "worker"',
    );
  });
});
