import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { blockingEdges, createTask, seedBlockingChain } from '../helpers/factory.ts';

describe('dependency cycles: deep graphs and concurrent link creation (422 DEPENDENCY_CYCLE)', () => {
  let h: TestHarness;
  let admin: Actor;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    await h.project(admin, 'RACE');
    await h.project(admin, 'DEEP');
  });
  afterAll(() => h.close());

  const link = (key: string, task: string, type: string) =>
    h.request('POST', `/api/v1/tasks/${key}/link/`, { token: admin.token, body: { task, type } });
  const newTask = async (project = 'RACE') => (await createTask(h, admin, project)).key as string;

  const blocksEdgesAmong = (keys: string[]) => blockingEdges(h.ctx.db, keys);

  it('two concurrent requests that together close a loop: exactly one succeeds, the other is 422 (repeated)', async () => {
    for (let round = 0; round < 10; round++) {
      const [a, b] = [await newTask(), await newTask()];
      const results = await Promise.all([link(a, b, 'blocks'), link(a, b, 'blocked_by')]);
      expect(results.map((r) => r.status).sort(), `round ${round}`).toEqual([201, 422]);
      expect(await blocksEdgesAmong([a, b])).toHaveLength(1);
    }
  });

  it('three concurrent links closing a 3-task loop: two succeed, one is refused with the whole loop', async () => {
    for (let round = 0; round < 5; round++) {
      const [x, y, z] = [await newTask(), await newTask(), await newTask()];
      const results = await Promise.all([link(x, y, 'blocks'), link(y, z, 'blocks'), link(z, x, 'blocks')]);
      expect(results.map((r) => r.status).sort(), `round ${round}`).toEqual([201, 201, 422]);
      const refused = results.find((r) => r.status === 422)!;
      expect(refused.body.error.details.path).toHaveLength(4);
      expect(await blocksEdgesAmong([x, y, z])).toHaveLength(2);
    }
  });

  it('concurrent mirrors of one duplicates link: one is created, the other is 409 DUPLICATE_LINK', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = [await newTask(), await newTask()];
      const results = await Promise.all([link(a, b, 'duplicates'), link(b, a, 'duplicates')]);
      expect(results.map((r) => r.status).sort(), `round ${round}`).toEqual([201, 409]);
    }
  });

  it('deleting a link and one of its tasks at the same time: both succeed or the link is already gone (404), never a 500', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = [await newTask(), await newTask()];
      const created = (await link(a, b, 'relates_to')).body.data;
      const [unlinked, deleted] = await Promise.all([
        h.request('DELETE', `/api/v1/tasks/${b}/links/${created.id}/`, { token: admin.token }),
        h.request('DELETE', `/api/v1/tasks/${a}/`, { token: admin.token }),
      ]);
      expect(deleted.status).toBe(204);
      expect([204, 404], `round ${round}`).toContain(unlinked.status);
    }
  });

  it('a 10,000-task chain: closing the loop reports all 10,000 tasks; a link that closes nothing still walks the chain and succeeds', async () => {
    const keys = await seedBlockingChain(h, 'DEEP', 10_000);
    const first = keys[0]!;
    const last = keys.at(-1)!;

    const started = performance.now();
    const res = await link(last, first, 'blocks');
    const elapsed = performance.now() - started;
    expect(res.status).toBe(422);
    const path: string[] = res.body.error.details.path;
    expect(path).toHaveLength(10_001);
    expect(path).toEqual([last, ...keys]);
    // A generous bound for a loaded CI machine; bench/links-cycle.ts measures it properly.
    expect(elapsed).toBeLessThan(5_000);

    const outside = await newTask('DEEP');
    expect((await link(outside, first, 'blocks')).status).toBe(201);
    expect((await link(last, first, 'relates_to')).status).toBe(201);
  });
});
