import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/context.ts';
import { startWorker, type WorkerJob } from '../../src/worker/run-worker.ts';
import { captureLogger } from '../helpers/webhooks.ts';

describe('stopping the worker', () => {
  // Without the stop check, the job would sleep out its hour and the test would time out.
  it('does not wait out the interval of a pass still running when the stop came', { timeout: 10_000 }, async () => {
    const passes: Array<() => void> = [];
    const job: WorkerJob = {
      name: 'hourly',
      intervalMs: 3_600_000,
      start: () => ({ pass: () => new Promise<boolean>((finish) => passes.push(() => finish(false))) }),
    };
    const worker = startWorker({} as AppContext, captureLogger().log, [job]);
    expect(passes).toHaveLength(1);

    const stopped = worker.stop();
    passes[0]!();
    await expect(stopped).resolves.toBeUndefined();
    expect(passes).toHaveLength(1);
  });
});
