import type { AddressInfo } from 'node:net';
import { createHarness, type ConfigOverrides, type TestHarness } from './harness.ts';

/** The real app over a fresh database, listening on a loopback port, as a client outside the process sees it. */
export async function listeningHarness(config?: ConfigOverrides): Promise<TestHarness & { baseUrl: string }> {
  const h = await createHarness(config ? { config } : {});
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  return Object.assign(h, { baseUrl: `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}` });
}
