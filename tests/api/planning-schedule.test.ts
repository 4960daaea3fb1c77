import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { createTask } from '../helpers/factory.ts';

describe('the schedule rule: no start before an open blocker is due (#34)', () => {
  let h: TestHarness;
  let admin: Actor;
  let outsider: Actor;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    await h.project(admin, 'SCH');
    await h.project(admin, 'HID');
    // Sees SCH only: HID's tasks are invisible to them.
    outsider = await h.actor({ org: admin.org, role: 'member' });
    await h.addMember('SCH', outsider.accountId, 'member');
  });
  afterAll(() => h.close());

  const put = (key: string, body: unknown, token = admin.token) =>
    h.request('PUT', `/api/v1/tasks/${key}/`, { token, body });
  const block = async (blocker: string, blocked: string) => {
    const res = await h.request('POST', `/api/v1/tasks/${blocker}/link/`, {
      token: admin.token,
      body: { task: blocked, type: 'blocks' },
    });
    expect(res.status, res.text).toBe(201);
  };

  it('422 SCHEDULE_CONFLICT names every open blocker due after the new start; nothing changes', async () => {
    const api = await createTask(h, admin, 'SCH', { title: 'API', due_date: '2026-12-10' });
    const schema = await createTask(h, admin, 'SCH', { title: 'Schema', due_date: '2026-12-04' });
    const ui = await createTask(h, admin, 'SCH', { title: 'UI', start_date: '2026-12-11', due_date: '2026-12-20' });
    await block(api.key, ui.key);
    await block(schema.key, ui.key);

    const refused = await put(ui.key, { start_date: '2026-12-01' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('SCHEDULE_CONFLICT');
    expect(refused.body.error.details).toEqual({
      blockers: [
        { key: api.key, title: 'API', due_date: '2026-12-10' },
        { key: schema.key, title: 'Schema', due_date: '2026-12-04' },
      ],
    });
    expect(refused.body.error.message).toContain(api.key);
    const after = await h.request('GET', `/api/v1/tasks/${ui.key}/`, { token: admin.token });
    expect(after.body.data.start_date).toBe('2026-12-11');
    expect(after.headers.etag).toBe('"v1"');

    // Between the two due dates: only the later blocker is in the way.
    const one = await put(ui.key, { start_date: '2026-12-05' });
    expect(one.body.error.details.blockers.map((b: { key: string }) => b.key)).toEqual([api.key]);
    // On the blocker's due date is allowed (it must not start *before* it).
    expect((await put(ui.key, { start_date: '2026-12-10' })).status).toBe(200);
  });

  it('force writes it anyway; done blockers, blockers without a due date and unchanged starts never refuse', async () => {
    const blocker = await createTask(h, admin, 'SCH', { title: 'Blocker', due_date: '2026-12-10' });
    const undated = await createTask(h, admin, 'SCH', { title: 'Undated' });
    const task = await createTask(h, admin, 'SCH', { title: 'Task' });
    await block(blocker.key, task.key);
    await block(undated.key, task.key);

    const forced = await put(task.key, { start_date: '2026-12-01', force: true });
    expect(forced.status, forced.text).toBe(200);
    expect(forced.body.data.start_date).toBe('2026-12-01');
    // Other edits of a task already in conflict are not refused: only a new start date is checked.
    expect((await put(task.key, { title: 'Task, renamed', start_date: '2026-12-01' })).status).toBe(200);
    expect((await put(task.key, { start_date: '2026-12-02' })).status).toBe(422);

    await put(blocker.key, { status: 'In Progress' });
    await put(blocker.key, { status: 'Done' });
    expect((await put(task.key, { start_date: '2026-12-02' })).status).toBe(200);
  });

  it('bulk update refuses the call (400, as any refused item) with the conflict in the item, and force is per item', async () => {
    const blocker = await createTask(h, admin, 'SCH', { title: 'B', due_date: '2026-12-10' });
    const task = await createTask(h, admin, 'SCH', { title: 'T' });
    await block(blocker.key, task.key);
    const refused = await h.request('POST', '/api/v1/projects/SCH/tasks/bulk-update/', {
      token: admin.token,
      body: { tasks: [{ key: task.key, start_date: '2026-12-01' }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.items).toEqual([
      expect.objectContaining({ index: 0, key: task.key, code: 'SCHEDULE_CONFLICT' }),
    ]);
    const forced = await h.request('POST', '/api/v1/projects/SCH/tasks/bulk-update/', {
      token: admin.token,
      body: { tasks: [{ key: task.key, start_date: '2026-12-01', force: true }] },
    });
    expect(forced.status, forced.text).toBe(200);
  });

  it('a blocker in a project the caller cannot see is neither named nor counted', async () => {
    const hidden = await createTask(h, admin, 'HID', { title: 'Secret plan', due_date: '2026-12-10' });
    const task = await createTask(h, admin, 'SCH', { title: 'Visible' });
    await block(hidden.key, task.key);
    expect((await put(task.key, { start_date: '2026-12-01' })).status).toBe(422);
    const res = await put(task.key, { start_date: '2026-12-02' }, outsider.token);
    expect(res.status, res.text).toBe(200);
    expect(res.text).not.toContain('Secret');
  });
});
