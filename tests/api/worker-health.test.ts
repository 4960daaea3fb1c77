import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processUrl } from '../helpers/database.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { startProcess } from '../helpers/processes.ts';

/** A worker-only process can be probed like `serve`: /healthz and /readyz on WORKER_HEALTH_PORT. */
describe('worker health endpoint', { timeout: 120_000 }, () => {
  let h: TestHarness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it('answers /healthz and /readyz on WORKER_HEALTH_PORT, nothing else, and stops with the worker', async () => {
    const worker = startProcess(['worker'], {
      DATABASE_URL: processUrl(h.ctx.database),
      HOST: '127.0.0.1',
      WORKER_HEALTH_PORT: '0',
    });
    try {
      const line = await worker.waitForLine((l) => l.msg === 'worker health endpoint listening');
      const base = `http://127.0.0.1:${String(line.port)}`;
      const health = await fetch(`${base}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok' });
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ok' });
      expect((await fetch(`${base}/api/v1/me/`)).status).toBe(404);
      expect((await fetch(`${base}/readyz`, { method: 'POST' })).status).toBe(405);
      expect(await worker.stop()).toBe(0);
      expect(worker.lines().map((l) => l.msg)).toContain('stopped');
      await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    } finally {
      await worker.stop();
    }
  });
});
