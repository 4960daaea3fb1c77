import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubtask, createTask, deleteTask, updateTask } from '../../src/modules/tasks/task-lifecycle.service.ts';
import { getTask } from '../../src/modules/tasks/task-read.service.ts';
import type { TaskCreateInput, TaskUpdateInput } from '../../src/modules/tasks/task.schemas.ts';
import type { Caller } from '../../src/identity/caller.ts';
import { refusal, serviceWorld, type ServiceWorld } from '../helpers/services.ts';

/** Task keys and the parent tree, through the task services (the HTTP side is in tests/api/tasks*.test.ts). */
describe('task numbering and hierarchy (services)', () => {
  let w: ServiceWorld;
  let admin: Caller;

  beforeAll(async () => {
    w = await serviceWorld();
    admin = await w.caller();
    await w.project(admin, 'NUM');
    await w.project(admin, 'TREE');
    await w.project(admin, 'ELSE');
  });
  afterAll(() => w.close());

  const create = async (project: string, input: Partial<TaskCreateInput> = {}) =>
    (await w.run(admin, (tx, caller) => createTask(tx, caller, project, { title: 'A task', ...input }))).task;
  const subtask = async (parent: string, title: string) =>
    (await w.run(admin, (tx, caller) => createSubtask(tx, caller, parent, { title }))).task;
  const update = async (key: string, input: TaskUpdateInput) =>
    (await w.run(admin, (tx, caller) => updateTask(tx, caller, key, input))).task;
  const read = async (key: string) => (await getTask(w.ctx, key, async () => admin.principal)).task;

  /** A chain of `levels` tasks, top first. */
  async function chain(levels: number): Promise<string[]> {
    const keys = [(await create('TREE', { title: 'level 1' })).key];
    for (let level = 2; level <= levels; level++) keys.push((await subtask(keys.at(-1)!, `level ${level}`)).key);
    return keys;
  }

  const parentRefusal = (reason: RegExp) => ({
    code: 'VALIDATION_ERROR',
    details: { fields: { parent: expect.stringMatching(reason) } },
  });

  it('keys count up per project; a refused create takes no number and a deleted key is never reused', async () => {
    expect((await create('NUM')).key).toBe('NUM-1');
    expect((await create('NUM')).key).toBe('NUM-2');
    expect(await refusal(create('NUM', { priority: 'Nope' }))).toEqual({
      code: 'VALIDATION_ERROR',
      details: { fields: { priority: expect.stringMatching(/Nope/) } },
    });
    expect((await create('NUM')).key).toBe('NUM-3');
    await w.run(admin, (tx, caller) => deleteTask(tx, caller, 'NUM-3'));
    expect((await create('NUM')).key).toBe('NUM-4');
    expect((await create('ELSE')).key).toBe('ELSE-1');
  });

  it('concurrent creates, each in its own unit of work, get distinct consecutive numbers', async () => {
    await w.project(admin, 'RACE');
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create('RACE', { title: `Concurrent ${i}` })),
    );
    expect(created.map((t) => Number(t.key.split('-')[1])).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  it("a subtask is a task of the parent's project with the parent set", async () => {
    const parent = await create('TREE', { title: 'Epic' });
    const child = await subtask(parent.key, 'Part 1');
    expect(child).toMatchObject({ project: 'TREE', parent: parent.key, title: 'Part 1', status: 'To Do' });
  });

  it('nesting stops at 5 levels, counting the subtree a re-parented task brings along', async () => {
    const five = await chain(5);
    expect(await refusal(subtask(five[4]!, 'level 6'))).toEqual(parentRefusal(/at most 5 levels/));
    const deep = await chain(4);
    const sub = await chain(2);
    expect(await refusal(update(sub[0]!, { parent: deep[3] }))).toEqual(parentRefusal(/at most 5 levels/));
    expect((await update(sub[0]!, { parent: deep[2] })).parent).toBe(deep[2]);
  });

  it('a task cannot become its own ancestor, and a refused update changes nothing', async () => {
    const [top, mid, leaf] = await chain(3);
    for (const parent of [top, mid, leaf]) {
      expect(await refusal(update(top!, { parent, title: 'changed' }))).toEqual(parentRefusal(/own ancestor/));
    }
    expect(await read(top!)).toMatchObject({ parent: null, title: 'level 1' });
  });

  it('the parent must be in the same project, on create and on update; null detaches', async () => {
    const other = await create('ELSE');
    const [top, child] = await chain(2);
    expect(await refusal(update(top!, { parent: other.key }))).toEqual(parentRefusal(/same project/));
    expect(await refusal(create('TREE', { parent: other.key }))).toEqual(parentRefusal(/same project/));
    expect((await create('TREE', { parent: top })).parent).toBe(top);
    expect((await update(child!, { parent: null })).parent).toBeNull();
    expect((await read(child!)).parent).toBeNull();
  });
});
