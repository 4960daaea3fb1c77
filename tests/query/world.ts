import { createUser } from '../../src/modules/accounts/accounts.service.ts';
import type { CustomFieldType } from '../../src/db/schema.ts';
import type { Actor, TestHarness } from '../helpers/harness.ts';

/**
 * A workspace for query tests, written straight to the database: two projects the caller sees
 * (QA, QB) and one it does not (QH), with statuses, priorities (QB lists them in the opposite
 * order), labels, milestones, sprints, people and custom fields whose names overlap across
 * projects, so names resolve per project. Tasks are inserted from plain descriptions.
 */
export interface World {
  caller: Actor;
  projects: Record<'QA' | 'QB' | 'QH', { id: number; key: string }>;
  people: Record<'alice' | 'bob' | 'carol', number>;
  options: Record<string, { statuses: OptionRow[]; types: OptionRow[]; priorities: OptionRow[] }>;
  labels: Record<string, Array<{ id: number; name: string }>>;
  milestones: Record<string, number[]>;
  sprints: Record<string, number[]>;
  fields: Record<string, { id: number; type: CustomFieldType; options: number[] }>;
}

interface OptionRow {
  id: number;
  name: string;
}

export interface TaskSpec {
  project: 'QA' | 'QB' | 'QH';
  title: string;
  description: string;
  status: number;
  type: number;
  priority: number;
  assignee: number | null;
  creator: number | null;
  labels: number[];
  milestone: number | null;
  sprint: number | null;
  /** Index of an earlier task of the same project. */
  parent: number | null;
  due: string | null;
  start: string | null;
  estimate: number | null;
  created: string;
  updated: string;
  followers: number[];
  /** Indexes of earlier tasks (of any project) that block this one. */
  blockers: number[];
  custom: Record<string, unknown>;
}

export async function seedWorld(h: TestHarness): Promise<World> {
  const caller = await h.actor({ org: 'query-world' });
  const other = await h.actor({ org: 'query-world' });
  const projects = {
    QA: await h.project(caller, 'QA'),
    QB: await h.project(caller, 'QB'),
    QH: await h.project(other, 'QH'),
  };
  const db = h.ctx.db;
  const person = async (email: string) =>
    (await createUser(h.ctx, { org: 'query-world', kind: 'human', name: email, email, role: 'member' })).id;
  const people = {
    alice: await person('alice@q.test'),
    bob: await person('Bob@q.test'),
    carol: await person('carol@q.test'),
  };
  const now = '2026-11-01T00:00:00.000000Z';
  const ids = Object.fromEntries(Object.entries(projects).map(([k, p]) => [k, p.id as number])) as Record<
    string,
    number
  >;

  await db
    .insertInto('statuses')
    .values({
      project_id: ids.QB!,
      name: 'Blocked',
      category: 'in_progress',
      position: 9,
      created_at: now,
      updated_at: now,
    })
    .execute();
  // QB lists its priorities the other way round: ranks are the project's own.
  const qbPriorities = await db
    .selectFrom('priorities')
    .select(['id', 'position'])
    .where('project_id', '=', ids.QB!)
    .execute();
  for (const p of qbPriorities)
    await db
      .updateTable('priorities')
      .set({ position: 10 - p.position })
      .where('id', '=', p.id)
      .execute();

  const options: World['options'] = {};
  for (const [key, id] of Object.entries(ids)) {
    const read = (table: 'statuses' | 'task_types' | 'priorities') =>
      db.selectFrom(table).select(['id', 'name']).where('project_id', '=', id).orderBy('id').execute();
    options[key] = {
      statuses: await read('statuses'),
      types: await read('task_types'),
      priorities: await read('priorities'),
    };
  }

  const labelNames: Record<string, string[]> = {
    QA: ['bug', 'Feature', 'ui'],
    QB: ['Bug', 'backend'],
    QH: ['secret', 'bug'],
  };
  const labels: World['labels'] = {};
  for (const [key, names] of Object.entries(labelNames)) {
    labels[key] = [];
    for (const name of names) {
      const row = await db
        .insertInto('labels')
        .values({ project_id: ids[key]!, name, color: '#888888', description: '', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      labels[key]!.push({ id: row.id, name });
    }
  }

  const milestones: World['milestones'] = {};
  const sprints: World['sprints'] = {};
  const plan: Record<string, { milestones: string[]; sprints: Array<[string, 'planned' | 'active' | 'completed']> }> = {
    QA: {
      milestones: ['v1'],
      sprints: [
        ['S1', 'active'],
        ['S2', 'planned'],
      ],
    },
    QB: {
      milestones: ['v1', 'v2'],
      sprints: [
        ['S1', 'completed'],
        ['S3', 'active'],
      ],
    },
    QH: { milestones: ['v1'], sprints: [['S9', 'active']] },
  };
  for (const [key, { milestones: ms, sprints: ss }] of Object.entries(plan)) {
    milestones[key] = [];
    sprints[key] = [];
    for (const name of ms) {
      const row = await db
        .insertInto('milestones')
        .values({
          project_id: ids[key]!,
          name,
          description: '',
          due_date: null,
          state: 'open',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      milestones[key]!.push(row.id);
    }
    for (const [name, state] of ss) {
      const row = await db
        .insertInto('sprints')
        .values({
          project_id: ids[key]!,
          name,
          goal: '',
          start_date: null,
          end_date: null,
          state,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      sprints[key]!.push(row.id);
    }
  }

  const organizationId = (
    await db.selectFrom('organizations').select('id').where('slug', '=', 'query-world').executeTakeFirstOrThrow()
  ).id;
  const fieldSpecs: Array<[string, CustomFieldType, string[], string | null]> = [
    ['Points', 'number', [], null],
    ['Area', 'select', ['Web', 'API'], null],
    ['Tags', 'multi_select', ['a', 'b', 'c'], null],
    ['Note', 'text', [], null],
    ['Launch', 'date', [], null],
    ['Flag', 'boolean', [], null],
    ['Reviewer', 'user', [], null],
    ['Hidden', 'text', [], 'QH'],
  ];
  const fields: World['fields'] = {};
  for (const [name, type, values, only] of fieldSpecs) {
    const field = await db
      .insertInto('custom_fields')
      .values({
        organization_id: organizationId,
        name,
        type,
        description: '',
        required: 0,
        all_projects: only ? 0 : 1,
        created_by: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (only)
      await db.insertInto('custom_field_projects').values({ field_id: field.id, project_id: ids[only]! }).execute();
    const optionIds: number[] = [];
    for (const [position, value] of values.entries())
      optionIds.push(
        (
          await db
            .insertInto('custom_field_options')
            .values({ field_id: field.id, value, position })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    fields[name] = { id: field.id, type, options: optionIds };
  }

  return {
    caller,
    projects: Object.fromEntries(
      Object.entries(projects).map(([k, p]) => [k, { id: p.id, key: k }]),
    ) as World['projects'],
    people,
    options,
    labels,
    milestones,
    sprints,
    fields,
  };
}

/** Replaces every task of the world's projects with `specs`; answers their ids, in order. */
export async function replaceTasks(h: TestHarness, world: World, specs: TaskSpec[]): Promise<number[]> {
  const db = h.ctx.db;
  const projectIds = Object.values(world.projects).map((p) => p.id);
  await db.deleteFrom('tasks').where('project_id', 'in', projectIds).execute();
  const ids: number[] = [];
  const numbers: Record<string, number> = {};
  for (const spec of specs) {
    const project = world.projects[spec.project];
    const number = (numbers[spec.project] = (numbers[spec.project] ?? 0) + 1);
    const row = await db
      .insertInto('tasks')
      .values({
        project_id: project.id,
        number,
        key: `${project.key}-${number}`,
        title: spec.title,
        description: spec.description,
        task_type_id: spec.type,
        priority_id: spec.priority,
        status_id: spec.status,
        assignee_id: spec.assignee,
        parent_id: spec.parent === null ? null : ids[spec.parent]!,
        due_date: spec.due,
        start_date: spec.start,
        estimate: spec.estimate,
        milestone_id: spec.milestone,
        sprint_id: spec.sprint,
        version: 1,
        created_by: spec.creator,
        created_at: spec.created,
        updated_at: spec.updated,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
    for (const label of spec.labels)
      await db.insertInto('task_labels').values({ task_id: row.id, label_id: label }).execute();
    for (const user of spec.followers)
      await db
        .insertInto('task_followers')
        .values({ task_id: row.id, user_id: user, created_at: spec.created })
        .execute();
    for (const blocker of spec.blockers)
      await db
        .insertInto('task_links')
        .values({
          from_task_id: ids[blocker]!,
          to_task_id: row.id,
          type: 'blocks',
          created_by: null,
          created_at: spec.created,
        })
        .execute();
    for (const [name, value] of Object.entries(spec.custom))
      await db
        .insertInto('task_custom_values')
        .values({ task_id: row.id, field_id: world.fields[name]!.id, value: JSON.stringify(value) })
        .execute();
  }
  return ids;
}
