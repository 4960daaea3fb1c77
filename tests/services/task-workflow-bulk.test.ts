import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkCreate, bulkUpdate } from '../../src/modules/tasks/task-bulk.service.ts';
import { createTask, updateTask } from '../../src/modules/tasks/task-lifecycle.service.ts';
import { getTask } from '../../src/modules/tasks/task-read.service.ts';
import type { TaskCreateInput, TaskUpdateInput } from '../../src/modules/tasks/task.schemas.ts';
import type { Caller } from '../../src/identity/caller.ts';
import { deleteTransition, listTransitions } from '../../src/modules/workflows/transitions.service.ts';
import { refusal, serviceWorld, type ServiceWorld } from '../helpers/services.ts';

/**
 * Workflow transitions and bulk all-or-nothing, through the task services (the HTTP side is in
 * tests/api/tasks-status-events.test.ts and tests/api/tasks-bulk.test.ts).
 */
describe('workflow transitions and bulk validation (services)', () => {
  let w: ServiceWorld;
  let admin: Caller;

  beforeAll(async () => {
    w = await serviceWorld();
    admin = await w.caller();
    await w.project(admin, 'FLOW');
    await w.project(admin, 'BULK');
    await w.project(admin, 'OTHER');
  });
  afterAll(() => w.close());

  const create = async (project: string, input: Partial<TaskCreateInput> = {}) =>
    (await w.run(admin, (tx, caller) => createTask(tx, caller, project, { title: 'A task', ...input }))).task;
  const update = async (key: string, input: TaskUpdateInput) =>
    (await w.run(admin, (tx, caller) => updateTask(tx, caller, key, input))).task;
  const read = async (key: string) => (await getTask(w.ctx, key, async () => admin.principal)).task;
  const refusedMove = (from: string, to: string) => ({ code: 'INVALID_TRANSITION', details: { from, to } });

  it('a status moves only along a transition of the workflow: To Do → In Progress → Done → To Do, never To Do → Done', async () => {
    const task = await create('FLOW');
    expect(await refusal(update(task.key, { status: 'Done' }))).toEqual(refusedMove('To Do', 'Done'));
    expect((await read(task.key)).status).toBe('To Do');
    for (const status of ['In Progress', 'Done', 'To Do'])
      expect((await update(task.key, { status })).status).toBe(status);
  });

  it('the workflow decides: removing a transition makes that move invalid in its project only', async () => {
    const project = await w.project(admin, 'FLOW2');
    const transitions = await listTransitions(
      w.ctx,
      admin.principal,
      { workflow: project.workflow! },
      { mode: 'offset', limit: 200, offset: 0, ordering: undefined },
    );
    const start = transitions.data.find((t) => t.from_status_name === 'To Do' && t.to_status_name === 'In Progress')!;
    await w.run(admin, (tx, caller) => deleteTransition(tx, caller.principal, start.id));
    expect(await refusal(update((await create('FLOW2')).key, { status: 'In Progress' }))).toEqual(
      refusedMove('To Do', 'In Progress'),
    );
    expect((await update((await create('FLOW')).key, { status: 'In Progress' })).status).toBe('In Progress');
  });

  it('bulk create is all or nothing: every bad item is reported by index, and nothing is created or numbered', async () => {
    await create('BULK');
    const items = [
      { title: 'fine' },
      { title: 'bad', priority: 'Nope' },
      { title: 'fine too' },
      { title: 'x', labels: ['zzz'] },
    ];
    expect(await refusal(w.run(admin, (tx, caller) => bulkCreate(tx, caller, 'BULK', items)))).toEqual({
      code: 'VALIDATION_ERROR',
      details: {
        items: [
          {
            index: 1,
            code: 'VALIDATION_ERROR',
            message: expect.any(String),
            fields: { priority: expect.stringMatching(/Nope/) },
          },
          {
            index: 3,
            code: 'VALIDATION_ERROR',
            message: expect.any(String),
            fields: { labels: expect.stringMatching(/zzz/) },
          },
        ],
      },
    });
    const created = await w.run(admin, (tx, caller) =>
      bulkCreate(tx, caller, 'BULK', [{ title: 'next' }, { title: 'after' }]),
    );
    expect(created.map((t) => t.key)).toEqual(['BULK-2', 'BULK-3']);
  });

  it('bulk update is all or nothing: an invalid transition, an unknown key or a foreign task fails the whole call', async () => {
    const foreign = await create('OTHER');
    const a = await create('BULK', { title: 'a' });
    const b = await create('BULK', { title: 'b' });
    const items = [
      { key: a.key, title: 'renamed' },
      { key: b.key, status: 'Done' },
      { key: 'BULK-99999', title: 'x' },
      { key: foreign.key, title: 'x' },
      { key: a.key, assignee: 999999 },
    ];
    expect(await refusal(w.run(admin, (tx, caller) => bulkUpdate(tx, caller, 'BULK', items)))).toEqual({
      code: 'VALIDATION_ERROR',
      details: {
        items: [
          {
            index: 1,
            key: b.key,
            code: 'INVALID_TRANSITION',
            message: expect.any(String),
            fields: { status: expect.any(String) },
            from: 'To Do',
            to: 'Done',
          },
          {
            index: 2,
            key: 'BULK-99999',
            code: 'NOT_FOUND',
            message: expect.any(String),
            fields: { key: expect.any(String) },
          },
          {
            index: 3,
            key: foreign.key,
            code: 'NOT_FOUND',
            message: expect.any(String),
            fields: { key: expect.any(String) },
          },
          {
            index: 4,
            key: a.key,
            code: 'VALIDATION_ERROR',
            message: expect.any(String),
            fields: { assignee: expect.any(String) },
          },
        ],
      },
    });
    expect(await read(a.key)).toEqual(a);
  });

  it('bulk update applies items in order, so one task can move twice in one call', async () => {
    const task = await create('BULK');
    const updated = await w.run(admin, (tx, caller) =>
      bulkUpdate(tx, caller, 'BULK', [
        { key: task.key, status: 'In Progress' },
        { key: task.key, status: 'Done' },
      ]),
    );
    expect(updated.map((t) => t.status)).toEqual(['In Progress', 'Done']);
    expect((await read(task.key)).status).toBe('Done');
  });
});
