import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoFromMs } from '../../src/clock.ts';
import { fanOut } from '../../src/modules/webhooks/delivery/fan-out.ts';
import { emitDueSoon, escalateStuckTasks } from '../../src/worker/scheduler.ts';
import { activitiesOf, outboxRows } from '../helpers/factory.ts';
import type { Actor } from '../helpers/harness.ts';
import { createWebhookHarness, type WebhookHarness } from '../helpers/webhooks.ts';

const DAY = 86_400_000;

/** Scheduled events. Tasks are inserted with the query builder; the clock starts at 2026-11-21T09:00:00Z. */
describe('scheduler: task.due_soon and task.escalated', () => {
  let h: WebhookHarness;
  let admin: Actor;
  let project: { id: number; key: string };
  let counter = 0;

  beforeAll(async () => {
    h = await createWebhookHarness({ allowPrivate: true });
    admin = await h.actor();
    project = await h.project(admin, 'SCH');
  });
  afterAll(() => h.close());

  async function insertTask(fields: {
    status: string;
    due_date?: string | null;
    updated_at?: string;
  }): Promise<{ id: number; key: string }> {
    const db = h.ctx.db;
    const status = await db
      .selectFrom('statuses')
      .select('id')
      .where('project_id', '=', project.id)
      .where('name', '=', fields.status)
      .executeTakeFirstOrThrow();
    const type = await db
      .selectFrom('task_types')
      .select('id')
      .where('project_id', '=', project.id)
      .orderBy('position')
      .executeTakeFirstOrThrow();
    const priority = await db
      .selectFrom('priorities')
      .select('id')
      .where('project_id', '=', project.id)
      .orderBy('position')
      .executeTakeFirstOrThrow();
    const number = ++counter;
    const at = fields.updated_at ?? h.clock.nowIso();
    return db
      .insertInto('tasks')
      .values({
        project_id: project.id,
        number,
        key: `${project.key}-${number}`,
        title: `Task ${number}`,
        description: '',
        task_type_id: type.id,
        priority_id: priority.id,
        status_id: status.id,
        assignee_id: null,
        parent_id: null,
        due_date: fields.due_date ?? null,
        milestone_id: null,
        sprint_id: null,
        version: 1,
        created_by: admin.accountId,
        created_at: at,
        updated_at: at,
      })
      .returning(['id', 'key'])
      .executeTakeFirstOrThrow();
  }

  const events = async (type: string) => (await outboxRows(h, type)).map((r) => JSON.parse(r.envelope));

  const activities = async (taskId: number) =>
    (await activitiesOf(h, taskId)).map(({ action, field, to_value, actor_id }) => ({
      action,
      field,
      to_value,
      actor_id,
    }));

  it('task.due_soon fires once per task per due date when the end of the due date is within the window', async () => {
    const today = await insertTask({ status: 'To Do', due_date: '2026-11-21' });
    const tomorrow = await insertTask({ status: 'In Progress', due_date: '2026-11-22' });
    const past = await insertTask({ status: 'To Do', due_date: '2026-11-20' });
    const done = await insertTask({ status: 'Done', due_date: '2026-11-21' });
    const none = await insertTask({ status: 'To Do' });

    expect(await emitDueSoon(h.ctx)).toBe(1);
    expect(await emitDueSoon(h.ctx)).toBe(0);
    const [first] = await events('task.due_soon');
    expect(first).toMatchObject({
      type: 'task.due_soon',
      api_version: 'v1',
      source: 'scheduler',
      actor: { id: 0, email: '', name: 'Scheduler' },
      data: {
        task: { key: today.key, title: 'Task 1', project: 'SCH', status: 'To Do', due_date: '2026-11-21' },
        due_date: '2026-11-21',
        window_hours: 24,
      },
    });
    expect(first.organization.slug).toBe(admin.org);
    expect(await activities(today.id)).toEqual([
      { action: 'due_soon', field: 'due_date', to_value: '"2026-11-21"', actor_id: null },
    ]);

    // 24 h before the end of 2026-11-22.
    h.clock.set('2026-11-21T23:59:59.999Z');
    expect(await emitDueSoon(h.ctx)).toBe(0);
    h.clock.set('2026-11-22T00:00:00Z');
    expect(await emitDueSoon(h.ctx)).toBe(1);
    expect((await events('task.due_soon')).map((e) => e.data.task.key)).toEqual([today.key, tomorrow.key]);

    // A new due date re-arms it; past, done and undated tasks never fire.
    await h.ctx.db.updateTable('tasks').set({ due_date: '2026-11-22' }).where('id', '=', today.id).execute();
    expect(await emitDueSoon(h.ctx)).toBe(1);
    for (const task of [past, done, none]) expect(await activities(task.id)).toEqual([]);
  });

  it('the due-soon window is configurable', async () => {
    h.clock.set('2026-12-01T09:00:00Z');
    const task = await insertTask({ status: 'To Do', due_date: '2026-12-02' });
    expect(await emitDueSoon(h.ctx)).toBe(0);
    h.ctx.config.scheduler.dueSoonWindowHours = 48;
    try {
      expect(await emitDueSoon(h.ctx)).toBe(1);
    } finally {
      h.ctx.config.scheduler.dueSoonWindowHours = 24;
    }
    expect((await events('task.due_soon')).at(-1).data).toMatchObject({ task: { key: task.key }, window_hours: 48 });
  });

  it('task.escalated fires once per stuck episode of an in_progress-category task', async () => {
    h.clock.set('2026-12-10T12:00:00Z');
    // Tasks of the earlier tests have sat in progress since November: escalate them out of the way.
    await escalateStuckTasks(h.ctx);
    const stuck = await insertTask({ status: 'In Review', updated_at: '2026-12-10T12:00:00.000000Z' });
    const waiting = await insertTask({ status: 'To Do' });
    const finished = await insertTask({ status: 'Done' });
    const before = (await events('task.escalated')).length;

    h.clock.advance(3 * DAY - 1);
    expect(await escalateStuckTasks(h.ctx)).toBe(0);
    h.clock.advance(1);
    expect(await escalateStuckTasks(h.ctx)).toBe(1);
    h.clock.advance(10 * DAY);
    expect(await escalateStuckTasks(h.ctx)).toBe(0);

    const escalated = (await events('task.escalated')).slice(before);
    expect(escalated).toHaveLength(1);
    expect(escalated[0]).toMatchObject({
      source: 'scheduler',
      data: { task: { key: stuck.key, status: 'In Review' }, status: 'In Review', stuck_days: 3 },
    });
    expect(await activities(stuck.id)).toEqual([
      { action: 'escalated', field: 'status', to_value: '"In Review"', actor_id: null },
    ]);
    expect(await activities(waiting.id)).toEqual([]);
    expect(await activities(finished.id)).toEqual([]);

    // A change to the task ends the episode; if it then sits again, that is a new episode.
    await h.ctx.db
      .updateTable('tasks')
      .set({ updated_at: isoFromMs(h.clock.nowMs()) })
      .where('id', '=', stuck.id)
      .execute();
    h.clock.advance(3 * DAY);
    expect(await escalateStuckTasks(h.ctx)).toBe(1);
    expect((await events('task.escalated')).slice(before)).toHaveLength(2);
  });

  it('scheduled events reach subscribed endpoints through the normal fan-out', async () => {
    await fanOut(h.ctx);
    const res = await h.request('POST', '/api/v1/webhooks/endpoints/', {
      token: admin.token,
      body: { url: 'https://hooks.test/hook', project: project.id, events: ['task.due_soon', 'task.escalated'] },
    });
    const when = h.clock.nowMs();
    await insertTask({
      status: 'In Progress',
      due_date: isoFromMs(when).slice(0, 10),
      updated_at: isoFromMs(when - 4 * DAY),
    });
    expect(await emitDueSoon(h.ctx)).toBe(1);
    expect(await escalateStuckTasks(h.ctx)).toBe(1);
    await fanOut(h.ctx);
    const deliveries = await h.ctx.db
      .selectFrom('webhook_deliveries')
      .select('event_type')
      .where('endpoint_id', '=', res.body.data.id)
      .orderBy('id')
      .execute();
    expect(deliveries.map((d) => d.event_type)).toEqual(['task.due_soon', 'task.escalated']);
  });
});
