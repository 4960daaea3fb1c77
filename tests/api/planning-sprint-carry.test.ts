import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { createTask, eventsFor } from '../helpers/factory.ts';

describe('completing a sprint carries its open tasks into the next (#34)', () => {
  let h: TestHarness;
  let admin: Actor;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    await h.project(admin, 'CAR');
    await h.project(admin, 'OTH');
  });
  afterAll(() => h.close());

  const sprint = async (project: string, name: string, state = 'planned') =>
    (await h.request('POST', `/api/v1/projects/${project}/sprints/`, { token: admin.token, body: { name, state } }))
      .body.data.id as number;
  const putSprint = (id: number, body: unknown) =>
    h.request('PUT', `/api/v1/sprints/${id}/`, { token: admin.token, body });

  it('moves the open tasks, each as a task update; done tasks stay; bad targets are 400 and change nothing', async () => {
    const s1 = await sprint('CAR', 'S1', 'active');
    const s2 = await sprint('CAR', 'S2');
    const foreign = await sprint('OTH', 'X');
    const open = await createTask(h, admin, 'CAR', { title: 'open', sprint: s1 });
    const done = await createTask(h, admin, 'CAR', { title: 'done', sprint: s1 });
    await h.request('PUT', `/api/v1/tasks/${done.key}/`, { token: admin.token, body: { status: 'In Progress' } });
    await h.request('PUT', `/api/v1/tasks/${done.key}/`, { token: admin.token, body: { status: 'Done' } });

    for (const body of [
      { carry_over_to: s2 },
      { state: 'completed', carry_over_to: foreign },
      { state: 'completed', carry_over_to: s1 },
    ]) {
      const res = await putSprint(s1, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.body.error.details.fields)).toEqual(['carry_over_to']);
    }
    expect((await h.request('GET', `/api/v1/sprints/${s1}/`, { token: admin.token })).body.data.state).toBe('active');

    const res = await putSprint(s1, { state: 'completed', carry_over_to: s2 });
    expect(res.status, res.text).toBe(200);
    const get = async (key: string) =>
      (await h.request('GET', `/api/v1/tasks/${key}/`, { token: admin.token })).body.data;
    expect((await get(open.key)).sprint).toBe(s2);
    expect((await get(done.key)).sprint).toBe(s1);
    const moved = (await eventsFor(h, open.key)).filter((e) => e.type === 'task.updated').at(-1)!;
    expect(moved.data.changes).toEqual({ sprint: { from: s1, to: s2 } });
  });
});
