import { expect } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import { inTransaction, type Tx } from '../../src/db/unit-of-work.ts';
import { originFromPrincipal } from '../../src/events/record-event.ts';
import { authenticate } from '../../src/identity/auth.service.ts';
import type { Principal } from '../../src/identity/principal.ts';
import { deleteMembership } from '../../src/modules/projects/memberships.service.ts';
import type { Caller } from '../../src/identity/caller.ts';
import { deleteTransition } from '../../src/modules/workflows/transitions.service.ts';
import type { Actor, TestHarness } from './harness.ts';

/**
 * Test data, in one place: tasks (through the API, or inserted directly where a test must not
 * depend on the tasks API or needs thousands), labels, milestones and sprints, and the casts
 * of people the permission and standup tests use. Readers of what a change recorded (outbox
 * events, change records, task rows) are here too.
 */

/** Creates a task through the API as `actor` and returns its JSON. */
export async function createTask(h: TestHarness, actor: Actor, projectKey: string, body: Record<string, unknown> = {}) {
  const res = await h.request('POST', `/api/v1/projects/${projectKey}/tasks/`, {
    token: actor.token,
    body: { title: 'A task', ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

/** The stored project row: its counters, defaults and workflow. */
export function projectRow(h: TestHarness, key: string) {
  return h.ctx.db.selectFrom('projects').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
}

export async function projectId(h: TestHarness, key: string): Promise<number> {
  return (await projectRow(h, key)).id;
}

export async function taskId(h: TestHarness, key: string): Promise<number> {
  return (await h.ctx.db.selectFrom('tasks').select('id').where('key', '=', key).executeTakeFirstOrThrow()).id;
}

/** The principal a request with `actor`'s token carries, for calling services directly. */
export function principalOf(h: TestHarness, actor: Actor): Promise<Principal> {
  return authenticate(h.ctx.db, h.clock, `Bearer ${actor.token}`);
}

let correlations = 0;

/** Runs `work` as `actor` in one unit of work, as a route would: the same rules as the API, without HTTP. */
export async function asActor<R>(
  h: TestHarness,
  actor: Actor,
  work: (tx: Tx, caller: Caller) => Promise<R>,
): Promise<R> {
  const principal = await principalOf(h, actor);
  const caller = { principal, origin: originFromPrincipal(principal, `test-${++correlations}`) };
  return inTransaction(h.ctx, (tx) => work(tx, caller));
}

/** Removes `accountId` from the project through the memberships service, as `by` (a project admin). */
export async function removeMember(h: TestHarness, by: Actor, projectKey: string, accountId: number): Promise<void> {
  const membership = await h.ctx.db
    .selectFrom('project_memberships')
    .select('id')
    .where('project_id', '=', await projectId(h, projectKey))
    .where('user_id', '=', accountId)
    .executeTakeFirstOrThrow();
  await asActor(h, by, (tx, caller) => deleteMembership(tx, caller, membership.id));
}

/** Deletes the transition between two statuses (by name) of the project's workflow, through the transitions service. */
export async function removeTransition(
  h: TestHarness,
  by: Actor,
  projectKey: string,
  from: string,
  to: string,
): Promise<void> {
  const project = await projectRow(h, projectKey);
  const transition = await h.ctx.db
    .selectFrom('transitions as t')
    .innerJoin('statuses as f', 'f.id', 't.from_status_id')
    .innerJoin('statuses as s', 's.id', 't.to_status_id')
    .select('t.id')
    .where('t.workflow_id', '=', project.workflow_id!)
    .where('f.project_id', '=', project.id)
    .where('f.name', '=', from)
    .where('s.name', '=', to)
    .executeTakeFirstOrThrow();
  await asActor(h, by, (tx, caller) => deleteTransition(tx, caller.principal, transition.id));
}

export async function addLabel(h: TestHarness, projectKey: string, name: string): Promise<number> {
  const now = h.clock.nowIso();
  const row = await h.ctx.db
    .insertInto('labels')
    .values({
      project_id: await projectId(h, projectKey),
      name,
      color: '',
      description: '',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function addMilestone(h: TestHarness, projectKey: string, name: string): Promise<number> {
  const now = h.clock.nowIso();
  const row = await h.ctx.db
    .insertInto('milestones')
    .values({
      project_id: await projectId(h, projectKey),
      name,
      description: '',
      due_date: null,
      state: 'open',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function addSprint(h: TestHarness, projectKey: string, name: string): Promise<number> {
  const now = h.clock.nowIso();
  const row = await h.ctx.db
    .insertInto('sprints')
    .values({
      project_id: await projectId(h, projectKey),
      name,
      goal: '',
      start_date: null,
      end_date: null,
      state: 'planned',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Outbox rows (of one type, or all), oldest first, as stored. */
export function outboxRows(h: TestHarness, type?: string) {
  let query = h.ctx.db.selectFrom('event_outbox').selectAll().orderBy('id');
  if (type !== undefined) query = query.where('type', '=', type);
  return query.execute();
}

/** Outbox events (of one type, or all), oldest first, as parsed envelopes. */
export async function events(h: TestHarness, type?: string) {
  return (await outboxRows(h, type)).map((r) => ({
    type: r.type,
    ...(JSON.parse(r.envelope) as {
      data: { task: { key: string } } & Record<string, unknown>;
      correlation_id: string;
    }),
  }));
}

/** Outbox events of one task key, oldest first, as parsed envelopes. */
export async function eventsFor(h: TestHarness, key: string) {
  return (await events(h)).filter((e) => e.data.task?.key === key);
}

/** Change records (of one task key, or all), oldest first, with the task snapshot parsed. */
export async function changesFor(h: TestHarness, key?: string) {
  let query = h.ctx.db.selectFrom('task_changes').selectAll().orderBy('id');
  if (key !== undefined) query = query.where('task_key', '=', key);
  const rows = await query.execute();
  return rows.map((r) => ({ ...r, task: r.task === null ? null : JSON.parse(r.task) }));
}

/** A task's activity entries, oldest first. */
export function activitiesOf(h: TestHarness, taskId: number) {
  return h.ctx.db.selectFrom('activities').selectAll().where('task_id', '=', taskId).orderBy('id').execute();
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

/** Moves every task of the project to a status directly, like insertTask, for modules that must not depend on the tasks API. */
export async function setStatusOfAllTasks(h: TestHarness, projectId: number, statusId: number): Promise<void> {
  await h.ctx.db.updateTable('tasks').set({ status_id: statusId }).where('project_id', '=', projectId).execute();
}

/** Labels tasks directly, like insertTask: `[task id, label id]` pairs. */
export async function insertTaskLabels(h: TestHarness, pairs: Array<[number, number]>): Promise<void> {
  await h.ctx.db
    .insertInto('task_labels')
    .values(pairs.map(([task_id, label_id]) => ({ task_id, label_id })))
    .execute();
}

/** Every task's labels as `{ task_id, label_id }`, by task. */
export function taskLabelRows(h: TestHarness) {
  return h.ctx.db.selectFrom('task_labels').select(['task_id', 'label_id']).orderBy('task_id').execute();
}

/**
 * Links two tasks (by key) directly, like insertTask, for modules that must not depend on the
 * links API; `by` null is a link whose creator is gone. `from` blocks `to`.
 */
export async function insertLink(
  h: TestHarness,
  from: string,
  to: string,
  by: Actor | null,
  type: 'blocks' | 'relates_to' = 'blocks',
) {
  return h.ctx.db
    .insertInto('task_links')
    .values({
      from_task_id: await taskId(h, from),
      to_task_id: await taskId(h, to),
      type,
      created_by: by?.accountId ?? null,
      created_at: h.clock.nowIso(),
    })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
}

/**
 * The stored `blocks` links whose ends are both among `keys`, as `from`/`to` keys. Takes the
 * database itself, so race tests can read past a connection that interleaves their requests.
 */
export function blockingEdges(db: Db, keys: string[]) {
  return db
    .selectFrom('task_links as l')
    .innerJoin('tasks as f', 'f.id', 'l.from_task_id')
    .innerJoin('tasks as t', 't.id', 'l.to_task_id')
    .select(['f.key as from', 't.key as to'])
    .where('l.type', '=', 'blocks')
    .where('f.key', 'in', keys)
    .where('t.key', 'in', keys)
    .execute();
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
  await db
    .updateTable('projects')
    .set({ task_counter: first + length - 1 })
    .where('id', '=', project.id)
    .execute();
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
  const team = {
    owner,
    alice: await member(),
    bob: await member(),
    projectAdmin: await member(),
    viewer: await member(),
    outsider: await member(),
  };
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
export async function standupTeam<N extends string>(
  h: TestHarness,
  names: N[],
  options: { ops?: N[] } = {},
): Promise<{ lead: Actor } & Record<N, Actor>> {
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
export async function createTaskAlong(
  h: TestHarness,
  actor: Actor,
  projectKey: string,
  title: string,
  options: { assignee?: number; path?: string[] } = {},
): Promise<string> {
  const { key } = await createTask(h, actor, projectKey, {
    title,
    ...(options.assignee !== undefined ? { assignee: options.assignee } : {}),
  });
  for (const status of options.path ?? []) {
    const res = await h.request('PUT', `/api/v1/tasks/${key}/`, { token: actor.token, body: { status } });
    expect(res.status, res.text).toBe(200);
  }
  return key as string;
}
