import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import {
  activitiesOf,
  addLabel,
  changesFor,
  createTask,
  eventsFor,
  projectRow,
  removeTransition,
} from '../helpers/factory.ts';

describe('task status, events, change records and activity', () => {
  let h: TestHarness;
  let admin: Actor;
  let teammate: Actor;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    teammate = await h.actor({ org: admin.org, role: 'member' });
    await h.project(admin, 'FLOW');
    await h.addMember('FLOW', teammate.accountId, 'member');
  });
  afterAll(() => h.close());

  const put = (key: string, body: unknown, token = admin.token) =>
    h.request('PUT', `/api/v1/tasks/${key}/`, { token, body });

  it('a status change along a workflow transition succeeds (To Do → In Progress → Done → To Do)', async () => {
    const task = await createTask(h, admin, 'FLOW');
    for (const [status, category] of [
      ['In Progress', 'in_progress'],
      ['Done', 'done'],
      ['To Do', 'todo'],
    ]) {
      const res = await put(task.key, { status });
      expect(res.status, status).toBe(200);
      expect(res.body.data).toMatchObject({ status, status_category: category });
    }
  });

  it('a move with no transition is 422 INVALID_TRANSITION with {from, to}; the task is untouched, updated_at included', async () => {
    const task = await createTask(h, admin, 'FLOW', { title: 'Stuck' });
    h.clock.advance(60_000);
    const res = await put(task.key, { status: 'Done', title: 'also renamed' });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'INVALID_TRANSITION', details: { from: 'To Do', to: 'Done' } });
    const after = await h.request('GET', `/api/v1/tasks/${task.key}/`, { token: admin.token });
    expect(after.body.data).toEqual(task);
    expect(after.headers.etag).toBe('"v1"');
    expect((await eventsFor(h, task.key)).map((e) => e.type)).toEqual(['task.created']);
    expect(await changesFor(h, task.key)).toHaveLength(1);
  });

  it('an unknown status name is a 400 VALIDATION_ERROR, not INVALID_TRANSITION; the same status is a no-op', async () => {
    const task = await createTask(h, admin, 'FLOW');
    const res = await put(task.key, { status: 'Shipped' });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields).toHaveProperty('status');
    const same = await put(task.key, { status: 'To Do' });
    expect(same.status).toBe(200);
    expect(same.headers.etag).toBe('"v1"');
  });

  it('the workflow decides: removing a transition makes that move invalid', async () => {
    const project = await projectRow(h, 'FLOW');
    await h.project(admin, 'FLOW2');
    const other = await projectRow(h, 'FLOW2');
    await removeTransition(h, admin, 'FLOW2', 'To Do', 'In Progress');
    const task = await createTask(h, admin, 'FLOW2');
    const res = await put(task.key, { status: 'In Progress' });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual({ from: 'To Do', to: 'In Progress' });
    expect(project.workflow_id).not.toBe(other.workflow_id);
  });

  it('create writes a "created" change record with the task JSON, a task.created event and a "created" activity', async () => {
    const task = await createTask(h, admin, 'FLOW', { title: 'Born' });
    const changes = await changesFor(h, task.key);
    expect(changes).toEqual([
      expect.objectContaining({ action: 'created', task_key: task.key, changed_at: task.created_at, task }),
    ]);
    const events = await eventsFor(h, task.key);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'task.created',
      api_version: 'v1',
      source: 'api',
      occurred_at: task.created_at,
      actor: { id: admin.accountId },
      organization: { slug: admin.org },
      data: { task },
    });
    const activity = await h.request('GET', `/api/v1/tasks/${task.key}/activities/`, { token: admin.token });
    expect(activity.body.data).toEqual([
      {
        id: expect.any(Number),
        action: 'created',
        field: null,
        from: null,
        to: null,
        actor: { id: admin.accountId, name: expect.any(String) },
        created_at: task.created_at,
      },
    ]);
  });

  it('an update writes one change record, one task.updated with every changed field, one activity row per field', async () => {
    await addLabel(h, 'FLOW', 'api');
    const parent = await createTask(h, admin, 'FLOW', { title: 'Parent' });
    const task = await createTask(h, admin, 'FLOW', { title: 'Before' });
    h.clock.advance(1000);
    const res = await put(task.key, {
      title: 'After',
      status: 'In Progress',
      assignee: teammate.accountId,
      labels: ['api'],
      due_date: '2027-01-02',
      parent: parent.key,
      priority: 'Urgent',
    });
    expect(res.status).toBe(200);
    const updated = res.body.data;

    const changes = await changesFor(h, task.key);
    expect(changes.map((c) => c.action)).toEqual(['created', 'updated']);
    expect(changes[1]).toMatchObject({ task: updated, changed_at: updated.updated_at });

    const expected = {
      title: { from: 'Before', to: 'After' },
      priority: { from: 'Medium', to: 'Urgent' },
      status: { from: 'To Do', to: 'In Progress' },
      assignee: { from: null, to: teammate.accountId },
      due_date: { from: null, to: '2027-01-02' },
      labels: { from: [], to: ['api'] },
      parent: { from: null, to: parent.key },
    };
    const events = await eventsFor(h, task.key);
    expect(events.map((e) => e.type)).toEqual(['task.created', 'task.updated', 'task.status_changed', 'task.assigned']);
    const [, updatedEvent, statusEvent, assignedEvent] = events;
    expect(updatedEvent!.data).toEqual({ task: updated, changes: expected });
    expect(statusEvent!.data).toEqual({ task: { key: task.key, title: 'After' }, from: 'To Do', to: 'In Progress' });
    expect(assignedEvent!.data).toEqual({
      task: { key: task.key, title: 'After' },
      from: null,
      to: teammate.accountId,
    });
    // One action, one correlation id across its events.
    expect(new Set(events.slice(1).map((e) => e.correlation_id)).size).toBe(1);

    const activity = await h.request('GET', `/api/v1/tasks/${task.key}/activities/`, { token: admin.token });
    const rows = activity.body.data.filter((a: { action: string }) => a.action === 'updated');
    expect(
      Object.fromEntries(
        rows.map((a: { field: string; from: unknown; to: unknown }) => [a.field, { from: a.from, to: a.to }]),
      ),
    ).toEqual(expected);
    expect(rows.every((a: { created_at: string }) => a.created_at === updated.updated_at)).toBe(true);
  });

  it('assign: {assignee} sets or clears, fires task.assigned (and task.updated); the assignee must be a project member', async () => {
    const task = await createTask(h, admin, 'FLOW');
    const res = await h.request('POST', `/api/v1/tasks/${task.key}/assign/`, {
      token: admin.token,
      body: { assignee: teammate.accountId },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.assignee).toBe(teammate.accountId);
    expect(res.headers.etag).toBe('"v2"');
    const cleared = await h.request('POST', `/api/v1/tasks/${task.key}/assign/`, {
      token: admin.token,
      body: { assignee: null },
    });
    expect(cleared.body.data.assignee).toBeNull();
    const types = (await eventsFor(h, task.key)).map((e) => e.type);
    expect(types).toEqual(['task.created', 'task.updated', 'task.assigned', 'task.updated', 'task.assigned']);

    const stranger = await h.actor({ org: admin.org });
    const bad = await h.request('POST', `/api/v1/tasks/${task.key}/assign/`, {
      token: admin.token,
      body: { assignee: stranger.accountId },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields).toHaveProperty('assignee');
    expect(
      (await h.request('POST', `/api/v1/tasks/${task.key}/assign/`, { token: admin.token, body: {} })).status,
    ).toBe(400);
    const stale = await h.request('POST', `/api/v1/tasks/${task.key}/assign/`, {
      token: admin.token,
      headers: { 'if-match': '"v1"' },
      body: { assignee: admin.accountId },
    });
    expect(stale.status).toBe(412);
  });

  it('delete writes a "deleted" change record without a task and task.deleted {task: {key, title}}', async () => {
    const task = await createTask(h, admin, 'FLOW', { title: 'Doomed' });
    expect((await h.request('DELETE', `/api/v1/tasks/${task.key}/`, { token: admin.token })).status).toBe(204);
    const changes = await changesFor(h, task.key);
    expect(changes.map((c) => [c.action, c.task])).toEqual([
      ['created', task],
      ['deleted', null],
    ]);
    const events = await eventsFor(h, task.key);
    expect(events.at(-1)).toMatchObject({ type: 'task.deleted', data: { task: { key: task.key, title: 'Doomed' } } });
    expect(await activitiesOf(h, changes[0]!.task_id)).toEqual([]);
  });

  it('activities: paginated, newest first by default, ordering=created_at for oldest first; actor as {id, name}', async () => {
    const task = await createTask(h, admin, 'FLOW', { title: 't0' });
    for (let i = 1; i <= 4; i++) {
      h.clock.advance(1000);
      await put(task.key, { title: `t${i}` }, i % 2 ? teammate.token : admin.token);
    }
    const page = await h.request('GET', `/api/v1/tasks/${task.key}/activities/?limit=2`, { token: admin.token });
    expect(page.body.pagination).toEqual({ count: 5, limit: 2, offset: 0 });
    expect(page.body.data.map((a: { to: unknown }) => a.to)).toEqual(['t4', 't3']);
    expect(page.body.data[1].actor.id).toBe(teammate.accountId);
    const oldest = await h.request('GET', `/api/v1/tasks/${task.key}/activities/?ordering=created_at`, {
      token: admin.token,
    });
    expect(oldest.body.data.map((a: { action: string; to: unknown }) => a.to ?? a.action)).toEqual([
      'created',
      't1',
      't2',
      't3',
      't4',
    ]);
    const cursor = await h.request('GET', `/api/v1/tasks/${task.key}/activities/?cursor=&limit=3`, {
      token: admin.token,
    });
    expect(cursor.body.pagination.has_more).toBe(true);
    expect(
      (await h.request('GET', `/api/v1/tasks/${task.key}/activities/?ordering=field`, { token: admin.token })).status,
    ).toBe(400);
  });
});
