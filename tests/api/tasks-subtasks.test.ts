import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { changesFor, createTask, eventsFor } from '../helpers/factory.ts';

describe('subtasks and parents', () => {
  let h: TestHarness;
  let admin: Actor;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    await h.project(admin, 'TREE');
    await h.project(admin, 'ELSE');
  });
  afterAll(() => h.close());

  const subtask = (key: string, body: Record<string, unknown> = {}) =>
    h.request('POST', `/api/v1/tasks/${key}/subtasks/`, { token: admin.token, body: { title: 'child', ...body } });
  const put = (key: string, body: unknown) => h.request('PUT', `/api/v1/tasks/${key}/`, { token: admin.token, body });

  /** A chain of `levels` tasks, top first. */
  async function chain(levels: number): Promise<string[]> {
    const keys = [(await createTask(h, admin, 'TREE', { title: 'level 1' })).key];
    for (let level = 2; level <= levels; level++) {
      const res = await subtask(keys.at(-1)!, { title: `level ${level}` });
      expect(res.status, res.text).toBe(201);
      keys.push(res.body.data.key);
    }
    return keys;
  }

  it('POST subtasks creates a task of the same project with parent set; GET lists direct subtasks', async () => {
    const parent = await createTask(h, admin, 'TREE', { title: 'Epic' });
    const res = await subtask(parent.key, { title: 'Part 1', priority: 'High' });
    expect(res.status).toBe(201);
    expect(res.headers.etag).toBe('"v1"');
    expect(res.body.data).toMatchObject({
      project: 'TREE',
      parent: parent.key,
      title: 'Part 1',
      priority: 'High',
      status: 'To Do',
    });
    await subtask(parent.key, { title: 'Part 2' });
    await subtask(res.body.data.key, { title: 'Grandchild' });
    const list = await h.request('GET', `/api/v1/tasks/${parent.key}/subtasks/`, { token: admin.token });
    expect(list.body.data.map((t: { title: string }) => t.title)).toEqual(['Part 1', 'Part 2']);
    expect(list.body.pagination).toEqual({ count: 2, limit: 50, offset: 0 });
    expect((await subtask(parent.key, { parent: 'TREE-1' })).status).toBe(400);
  });

  it(`nesting stops at 5 levels: a subtask of a level-5 task is a 400 naming parent`, async () => {
    const keys = await chain(5);
    const res = await subtask(keys[4]!);
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields.parent).toMatch(/at most 5 levels/);
  });

  it('re-parenting counts the moved subtree: a 2-level subtree cannot go under a level-4 task', async () => {
    const deep = await chain(4);
    const sub = await chain(2);
    const res = await put(sub[0]!, { parent: deep[3] });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields.parent).toMatch(/at most 5 levels/);
    const ok = await put(sub[0]!, { parent: deep[2] });
    expect(ok.status).toBe(200);
    expect(ok.body.data.parent).toBe(deep[2]);
  });

  it('a task cannot become its own ancestor (itself, its child or a deeper descendant): 400, nothing changes', async () => {
    const [top, mid, leaf] = await chain(3);
    for (const parent of [top, mid, leaf]) {
      const res = await put(top!, { parent, title: 'changed' });
      expect(res.status, parent).toBe(400);
      expect(res.body.error.details.fields.parent).toMatch(/own ancestor/);
    }
    const read = await h.request('GET', `/api/v1/tasks/${top}/`, { token: admin.token });
    expect(read.body.data).toMatchObject({ parent: null, title: 'level 1' });
  });

  it('two concurrent re-parentings that would close a loop: exactly one wins, the other is refused', async () => {
    const a = (await createTask(h, admin, 'TREE', { title: 'A' })).key;
    const b = (await createTask(h, admin, 'TREE', { title: 'B' })).key;
    const results = await Promise.all([put(a, { parent: b }), put(b, { parent: a })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const parents = await Promise.all(
      [a, b].map(
        async (key) => (await h.request('GET', `/api/v1/tasks/${key}/`, { token: admin.token })).body.data.parent,
      ),
    );
    expect(parents.filter((p) => p !== null)).toHaveLength(1);
  });

  it('the parent must be in the same project; null detaches', async () => {
    const other = await createTask(h, admin, 'ELSE');
    const [top, child] = await chain(2);
    const res = await put(top!, { parent: other.key });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields.parent).toMatch(/same project/);
    const create = await h.request('POST', '/api/v1/projects/TREE/tasks/', {
      token: admin.token,
      body: { title: 'x', parent: other.key },
    });
    expect(create.status).toBe(400);
    const viaCreate = await h.request('POST', '/api/v1/projects/TREE/tasks/', {
      token: admin.token,
      body: { title: 'x', parent: top },
    });
    expect(viaCreate.body.data.parent).toBe(top);
    const detached = await put(child!, { parent: null });
    expect(detached.body.data.parent).toBeNull();
  });

  it('deleting a parent detaches its subtasks (parent → null), each with its own change record and task.updated', async () => {
    const [top, a] = await chain(2);
    const b = (await subtask(top!, { title: 'b' })).body.data.key;
    const grandchild = (await subtask(a!, { title: 'gc' })).body.data.key;
    expect((await h.request('DELETE', `/api/v1/tasks/${top}/`, { token: admin.token })).status).toBe(204);

    for (const key of [a!, b]) {
      const read = await h.request('GET', `/api/v1/tasks/${key}/`, { token: admin.token });
      expect(read.body.data.parent).toBeNull();
      const changes = await changesFor(h, key);
      expect(changes.at(-1)).toMatchObject({ action: 'updated', task: { key, parent: null } });
      const events = await eventsFor(h, key);
      expect(events.at(-1)).toMatchObject({
        type: 'task.updated',
        data: { changes: { parent: { from: top, to: null } } },
      });
    }
    // Only direct children are detached; deeper levels keep their parent.
    expect((await h.request('GET', `/api/v1/tasks/${grandchild}/`, { token: admin.token })).body.data.parent).toBe(a);
    // The detach and the deletion are one action.
    const related = [...(await eventsFor(h, a!)), ...(await eventsFor(h, top!))]
      .filter((e) => ['task.updated', 'task.deleted'].includes(e.type))
      .slice(-2);
    expect(new Set(related.map((e) => e.correlation_id)).size).toBe(1);
  });
});
