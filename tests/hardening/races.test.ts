import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, TestHarness } from '../helpers/harness.ts';
import { createHarness } from '../helpers/harness.ts';
import { changesFor, eventsFor, projectRow, taskRows } from '../helpers/factory.ts';

/**
 * Real concurrency: requests started together with Promise.all over inject. On PostgreSQL they
 * run on separate pooled connections and interleave inside the database; on SQLite the one
 * connection serializes them, so the same assertions check that every order is handled.
 */
const ROUNDS = 12;

describe('races with real concurrency', () => {
  let h: TestHarness;
  let admin: Actor;
  let member: Actor;
  let projectId: number;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    member = await h.actor({ org: admin.org, role: 'member' });
    projectId = (await h.project(admin, 'RACE')).id;
  });
  afterAll(() => h.close());

  it('status change vs delete of the same task: the delete wins or comes second, never a 500; the feed and events agree', async () => {
    const outcomes: Record<string, number> = {};
    for (let round = 0; round < ROUNDS; round++) {
      const created = await h.request('POST', '/api/v1/projects/RACE/tasks/', {
        token: admin.token,
        body: { title: `Race ${round}` },
      });
      expect(created.status).toBe(201);
      const key: string = created.body.data.key;
      const [moved, deleted] = await Promise.all([
        h.request('PUT', `/api/v1/tasks/${key}/`, { token: admin.token, body: { status: 'In Progress' } }),
        h.request('DELETE', `/api/v1/tasks/${key}/`, { token: admin.token }),
      ]);
      outcomes[`${moved.status}/${deleted.status}`] = (outcomes[`${moved.status}/${deleted.status}`] ?? 0) + 1;
      expect(deleted.status, deleted.text).toBe(204);
      expect([200, 404], moved.text).toContain(moved.status);
      if (moved.status === 404) expect(moved.body.error.code).toBe('NOT_FOUND');

      expect((await h.request('GET', `/api/v1/tasks/${key}/`, { token: admin.token })).status).toBe(404);
      const changes = await changesFor(h, key);
      expect(changes.map((c) => c.action)).toEqual(
        moved.status === 200 ? ['created', 'updated', 'deleted'] : ['created', 'deleted'],
      );
      const mine = (await eventsFor(h, key)).map((e) => e.type);
      expect(mine.at(-1)).toBe('task.deleted');
      expect(mine.includes('task.status_changed')).toBe(moved.status === 200);
    }
    // The feed as an integrator sees it ends every raced task with its deletion.
    const feed = await h.request('GET', '/api/v1/changes/tasks/?page_size=200', { token: admin.token });
    const last = new Map<string, string>();
    for (const change of feed.body.data.changes as Array<{ key: string; action: string }>)
      last.set(change.key, change.action);
    expect([...last.values()].every((action) => action === 'deleted')).toBe(true);
    console.info(`status vs delete outcomes (PUT/DELETE): ${JSON.stringify(outcomes)}`);
  });

  it('task key allocation: 20 concurrent creates (single and bulk) get distinct consecutive keys', async () => {
    await h.project(admin, 'KEYS');
    const results = await Promise.all([
      ...Array.from({ length: 16 }, (_, i) =>
        h.request('POST', '/api/v1/projects/KEYS/tasks/', { token: admin.token, body: { title: `Concurrent ${i}` } }),
      ),
      ...Array.from({ length: 2 }, (_, i) =>
        h.request('POST', '/api/v1/projects/KEYS/tasks/bulk/', {
          token: admin.token,
          body: { tasks: [{ title: `Bulk ${i}a` }, { title: `Bulk ${i}b` }] },
        }),
      ),
    ]);
    for (const res of results) expect(res.status, res.text).toBe(201);
    const rows = await taskRows(h, (await projectRow(h, 'KEYS')).id);
    expect(rows.map((r) => r.number).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(rows.map((r) => r.key)).size).toBe(20);
  });

  it('membership removal vs in-flight requests: each request fully succeeds or is a 404; afterwards the member is locked out', async () => {
    const outcomes: Record<number, number> = {};
    for (let round = 0; round < ROUNDS; round++) {
      const added = await h.request('POST', '/api/v1/memberships/', {
        token: admin.token,
        body: { project: projectId, user: member.accountId, role: 'member' },
      });
      expect(added.status, added.text).toBe(201);
      const before = await taskRows(h, projectId);
      const [removed, ...writes] = await Promise.all([
        h.request('DELETE', `/api/v1/memberships/${added.body.data.id}/`, { token: admin.token }),
        h.request('POST', '/api/v1/projects/RACE/tasks/', {
          token: member.token,
          body: { title: `By member ${round}` },
        }),
        h.request('GET', '/api/v1/projects/RACE/tasks/', { token: member.token }),
        h.request('POST', '/api/v1/projects/RACE/labels/', { token: member.token, body: { name: `label ${round}` } }),
      ]);
      expect(removed.status, removed.text).toBe(204);
      for (const res of writes) {
        outcomes[res.status] = (outcomes[res.status] ?? 0) + 1;
        expect([200, 201, 404], res.text).toContain(res.status);
      }
      const [task] = writes;
      const after = await taskRows(h, projectId);
      expect(after.length - before.length).toBe(task!.status === 201 ? 1 : 0);
      const locked = await h.request('POST', '/api/v1/projects/RACE/tasks/', {
        token: member.token,
        body: { title: 'too late' },
      });
      expect(locked.status).toBe(404);
    }
    console.info(`membership removal race outcomes: ${JSON.stringify(outcomes)}`);
  });
});
