import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/cli/serve.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';

/**
 * Found by the crash-safety run (tests/hardening/crash-safety.test.ts): `serve` started the
 * worker before the API was ready, so the first delivery pass of every restarted process ran
 * while Fastify compiled its schemas (seconds of blocked event loop on a busy machine). Those
 * attempts spent their whole 5 s deadline waiting, sent nothing, and were recorded as receiver
 * timeouts, pushing the deliveries back by the retry schedule.
 */
describe('serve: the worker starts once the API is listening', () => {
  let h: TestHarness;
  let running: RunningServer | undefined;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await running?.app?.close();
    await running?.worker?.stop();
    await h.close();
  });

  it('the first worker pass finds the HTTP API already answering', { timeout: 120_000 }, async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));

    let firstPass: Promise<number | string> | undefined;
    const ctx = { ...h.ctx, config: { ...h.ctx.config, host: '127.0.0.1', port, logLevel: 'silent' } };
    running = await startServer(ctx, { api: true, worker: true }, [
      {
        name: 'probe',
        intervalMs: 60_000,
        start: () => ({
          pass: async () => {
            firstPass ??= fetch(`http://127.0.0.1:${port}/healthz`).then(
              (res) => res.status,
              (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.message,
            );
            await firstPass;
            return false;
          },
        }),
      },
    ]);
    expect(await firstPass).toBe(200);
  });
});
