import { expect } from 'vitest';
import type { Actor, TestHarness } from './harness.ts';

/**
 * Test data, in one place: tasks (through the API, or inserted directly where a test must not
 * depend on the tasks API or needs thousands), labels, milestones and sprints, and the casts
 * of people the permission and standup tests use. Readers of what a change recorded (outbox
 * events, change records, task rows) are here too.
 */

/** Creates a task through the API as `actor` and returns its JSON. */
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

/**
 * Inserts a task row straight through the query builder, for tests of modules that must not
 * depend on the tasks API (status delete and reorder, planning deletes).
 */
export async function insertTask(
  h: TestHarness,
  projectId: number,
  fields: { status_id?: number; milestone_id?: number | null; sprint_id?: number | null; title?: string } = {},
): Promise<number> {
  const db = h.ctx.db;
  const project = await db
    .updateTable('projects')
    .set((eb) => ({ task_counter: eb('task_counter', '+', 1) }))
    .where('id', '=', projectId)
    .returning(['key', 'task_counter', 'default_status_id', 'default_task_type_id', 'default_priority_id'])
    .executeTakeFirstOrThrow();
  const now = h.clock.nowIso();
  const row = await db
    .insertInto('tasks')
    .values({
      project_id: projectId,
      number: project.task_counter,
      key: `${project.key}-${project.task_counter}`,
      title: fields.title ?? `Task ${project.task_counter}`,
      description: '',
      task_type_id: project.default_task_type_id!,
      priority_id: project.default_priority_id!,
      status_id: fields.status_id ?? project.default_status_id!,
      milestone_id: fields.milestone_id ?? null,
      sprint_id: fields.sprint_id ?? null,
      version: 1,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function taskRows(h: TestHarness, projectId: number) {
  return h.ctx.db.selectFrom('tasks').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
}

/**
 * Inserts `length` tasks into the project and links them into one chain (each blocks the next)
 * directly in the database, in batches: building a 10,000-task graph through the API would take
 * minutes. Returns the keys in chain order. Shared by the link tests and bench/links-cycle.ts.
 */
export async function seedBlockingChain(h: TestHarness, projectKey: string, length: number): Promise<string[]> {
  const db = h.ctx.db;
  const project = await db
    .selectFrom('projects')
    .select(['id', 'task_counter', 'default_status_id', 'default_task_type_id', 'default_priority_id'])
    .where('key', '=', projectKey)
    .executeTakeFirstOrThrow();
  const now = h.clock.nowIso();
  const first = project.task_counter + 1;
  const ids: number[] = [];
  const keys: string[] = [];
  const BATCH = 1000;
  for (let start = 0; start < length; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, length - start) }, (_, i) => {
      const number = first + start + i;
      return {
        project_id: project.id,
        number,
        key: `${projectKey}-${number}`,
        title: `Chain ${start + i + 1}`,
        description: '',
        task_type_id: project.default_task_type_id!,
        priority_id: project.default_priority_id!,
        status_id: project.default_status_id!,
        assignee_id: null,
        parent_id: null,
        due_date: null,
        milestone_id: null,
        sprint_id: null,
        version: 1,
        created_by: null,
        created_at: now,
        updated_at: now,
      };
    });
    const inserted = await db.insertInto('tasks').values(rows).returning(['id', 'key']).execute();
    ids.push(...inserted.map((r) => r.id));
    keys.push(...inserted.map((r) => r.key));
  }
  await db.updateTable('projects').set({ task_counter: first + length - 1 }).where('id', '=', project.id).execute();
  for (let start = 0; start < length - 1; start += BATCH) {
    const rows = ids.slice(start, Math.min(start + BATCH, length - 1)).map((id, i) => ({
      from_task_id: id,
      to_task_id: ids[start + i + 1]!,
      type: 'blocks' as const,
      created_by: null,
      created_at: now,
    }));
    await db.insertInto('task_links').values(rows).execute();
  }
  return keys;
}

/** One project's cast for permission tests: its creator, two members, a project admin, a viewer, and a workspace member outside it. */
export interface ProjectTeam {
  owner: Actor;
  alice: Actor;
  bob: Actor;
  projectAdmin: Actor;
  viewer: Actor;
  outsider: Actor;
}

export async function projectTeam(h: TestHarness, projectKey: string): Promise<ProjectTeam> {
  const owner = await h.actor();
  const member = () => h.actor({ org: owner.org, role: 'member' });
  const team = { owner, alice: await member(), bob: await member(), projectAdmin: await member(), viewer: await member(), outsider: await member() };
  await h.project(owner, projectKey);
  await h.addMember(projectKey, team.alice.accountId, 'member');
  await h.addMember(projectKey, team.bob.accountId, 'member');
  await h.addMember(projectKey, team.projectAdmin.accountId, 'admin');
  await h.addMember(projectKey, team.viewer.accountId, 'viewer');
  return team;
}

/**
 * A fresh organization for one standup scenario: `lead` (workspace admin) owns projects WEB and
 * OPS; every other person is a member of WEB only unless listed in `ops`.
 */
export async function standupTeam<N extends string>(h: TestHarness, names: N[], options: { ops?: N[] } = {}): Promise<{ lead: Actor } & Record<N, Actor>> {
  const lead = await h.actor({ role: 'admin' });
  await h.project(lead, 'WEB');
  await h.project(lead, 'OPS');
  const people = {} as Record<N, Actor>;
  for (const name of names) {
    const person = await h.actor({ org: lead.org, role: 'member' });
    await h.addMember('WEB', person.accountId);
    people[name] = person;
  }
  for (const name of options.ops ?? []) await h.addMember('OPS', people[name]!.accountId);
  return { ...people, lead };
}

/** Creates a task through the API as `actor`, moves it along the default workflow's `path`, and returns its key. */
export async function createTaskAlong(h: TestHarness, actor: Actor, projectKey: string, title: string, options: { assignee?: number; path?: string[] } = {}): Promise<string> {
  const { key } = await createTask(h, actor, projectKey, { title, ...(options.assignee !== undefined ? { assignee: options.assignee } : {}) });
  for (const status of options.path ?? []) {
    const res = await h.request('PUT', `/api/v1/tasks/${key}/`, { token: actor.token, body: { status } });
    expect(res.status, res.text).toBe(200);
  }
  return key as string;
}
