import { expect } from 'vitest';
import type { Actor, TestHarness } from './harness.ts';

/** Small factories for task tests. Labels, milestones and sprints are inserted directly: their endpoints live elsewhere. */
export async function createTask(h: TestHarness, actor: Actor, projectKey: string, body: Record<string, unknown> = {}) {
  const res = await h.request('POST', `/api/v1/projects/${projectKey}/tasks/`, { token: actor.token, body: { title: 'A task', ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

export async function projectId(h: TestHarness, key: string): Promise<number> {
  return (await h.ctx.db.selectFrom('projects').select('id').where('key', '=', key).executeTakeFirstOrThrow()).id;
}

export async function addLabel(h: TestHarness, projectKey: string, name: string): Promise<number> {
  const now = h.clock.nowIso();
  const row = await h.ctx.db
    .insertInto('labels')
    .values({ project_id: await projectId(h, projectKey), name, color: '', description: '', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function addMilestone(h: TestHarness, projectKey: string, name: string): Promise<number> {
  const now = h.clock.nowIso();
  const row = await h.ctx.db
    .insertInto('milestones')
    .values({ project_id: await projectId(h, projectKey), name, description: '', due_date: null, state: 'open', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function addSprint(h: TestHarness, projectKey: string, name: string): Promise<number> {
  const now = h.clock.nowIso();
  const row = await h.ctx.db
    .insertInto('sprints')
    .values({ project_id: await projectId(h, projectKey), name, goal: '', start_date: null, end_date: null, state: 'planned', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Outbox events of one task key, oldest first, as parsed envelopes. */
export async function eventsFor(h: TestHarness, key: string) {
  const rows = await h.ctx.db.selectFrom('event_outbox').select(['type', 'envelope']).orderBy('id').execute();
  return rows
    .map((r) => ({ type: r.type, ...(JSON.parse(r.envelope) as { data: { task: { key: string } } & Record<string, unknown>; correlation_id: string }) }))
    .filter((e) => e.data.task?.key === key);
}

export async function changesFor(h: TestHarness, key: string) {
  const rows = await h.ctx.db.selectFrom('task_changes').selectAll().where('task_key', '=', key).orderBy('id').execute();
  return rows.map((r) => ({ ...r, task: r.task === null ? null : JSON.parse(r.task) }));
}
