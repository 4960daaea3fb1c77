import { type SelectQueryBuilder, sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { insertWithTimestamps } from '../../db/insert-with-timestamps.ts';
import { paginate } from '../../db/paginate.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { visibleProjectIds } from '../../policy/visibility.repository.ts';

/**
 * Labels, milestones and sprints of the caller's visible projects (anything else reads as
 * absent: 404), each with the number of tasks carrying it.
 *
 * Date columns are also selected as `*_sort` with missing dates mapped past every real one,
 * so ordering by a date puts undated rows last (ascending) on both dialects alike; SQLite and
 * PostgreSQL disagree on where NULLs sort.
 */
const UNDATED = '9999-12-31';

function selectLabels(db: Executor, principal: Principal) {
  return db
    .selectFrom('labels as l')
    .innerJoin('projects as lp', 'lp.id', 'l.project_id')
    .where('l.project_id', 'in', visibleProjectIds(db, principal))
    .select((eb) => [
      'l.id',
      'l.project_id',
      'lp.key as project',
      'l.name',
      'l.color',
      'l.description',
      eb
        .selectFrom('task_labels as tl')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('tl.label_id', '=', 'l.id')
        .as('task_count'),
      'l.created_at',
      'l.updated_at',
    ]);
}

function selectMilestones(db: Executor, principal: Principal) {
  return db
    .selectFrom('milestones as m')
    .innerJoin('projects as mp', 'mp.id', 'm.project_id')
    .where('m.project_id', 'in', visibleProjectIds(db, principal))
    .select((eb) => [
      'm.id',
      'm.project_id',
      'mp.key as project',
      'm.name',
      'm.description',
      'm.due_date',
      sql<string>`coalesce(m.due_date, ${sql.lit(UNDATED)})`.as('due_date_sort'),
      'm.state',
      eb
        .selectFrom('tasks as mt')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('mt.milestone_id', '=', 'm.id')
        .as('task_count'),
      'm.created_at',
      'm.updated_at',
    ]);
}

function selectSprints(db: Executor, principal: Principal) {
  return db
    .selectFrom('sprints as sp')
    .innerJoin('projects as spp', 'spp.id', 'sp.project_id')
    .where('sp.project_id', 'in', visibleProjectIds(db, principal))
    .select((eb) => [
      'sp.id',
      'sp.project_id',
      'spp.key as project',
      'sp.name',
      'sp.goal',
      'sp.start_date',
      'sp.end_date',
      sql<string>`coalesce(sp.start_date, ${sql.lit(UNDATED)})`.as('start_date_sort'),
      sql<string>`coalesce(sp.end_date, ${sql.lit(UNDATED)})`.as('end_date_sort'),
      'sp.state',
      eb
        .selectFrom('tasks as st')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('st.sprint_id', '=', 'sp.id')
        .as('task_count'),
      'sp.created_at',
      'sp.updated_at',
    ]);
}

type MilestoneState = 'open' | 'closed';
type SprintState = 'planned' | 'active' | 'completed';

export interface LabelValues {
  name: string;
  color: string;
  description: string;
}

export interface MilestoneValues {
  name: string;
  description: string;
  due_date: string | null;
  state: MilestoneState;
}

export interface SprintValues {
  name: string;
  goal: string;
  start_date: string | null;
  end_date: string | null;
  state: SprintState;
}

interface PlanningValues {
  labels: LabelValues;
  milestones: MilestoneValues;
  sprints: SprintValues;
}

type StateOf<V> = V extends { state: infer S } ? S : never;

/**
 * The statements of one kind, from its selection: `alias` is the item table's alias there; a
 * kind with states lists those in one state when given it.
 */
function planningQueries<T extends keyof PlanningValues, O extends { id: number }>(
  table: T,
  alias: string,
  // Any table set: only a WHERE on the item's own columns is added.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  rows: (db: Executor, principal: Principal) => SelectQueryBuilder<any, any, O>,
  listing: { own: Record<string, string>; defaultOrdering: string },
) {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  // Kysely checks values against the three tables at once; each kind's own columns are checked by its PlanningValues.
  const into: keyof PlanningValues = table;
  // The orderings a list offers: the kind's own between name and the timestamps.
  const orderable = {
    id: `${alias}.id`,
    name: `${alias}.name`,
    ...listing.own,
    created_at: `${alias}.created_at`,
    updated_at: `${alias}.updated_at`,
  };
  return {
    /** One page of the project's items, in one state when given it. */
    pageOfProject(
      db: Executor,
      principal: Principal,
      projectId: number,
      state: StateOf<PlanningValues[T]> | undefined,
      page: PageRequest,
    ) {
      const query = rows(db, principal).where(column('project_id'), '=', projectId);
      return paginate(state === undefined ? query : query.where(column('state'), '=', state), page, {
        idColumn: `${alias}.id`,
        orderable,
        defaultOrdering: listing.defaultOrdering,
      });
    },
    findVisible: (db: Executor, principal: Principal, id: number): Promise<O | undefined> =>
      rows(db, principal).where(column('id'), '=', id).executeTakeFirst(),
    insert(db: Executor, projectId: number, values: PlanningValues[T], at: string): Promise<number> {
      const fields: PlanningValues[keyof PlanningValues] = values;
      return insertWithTimestamps(db, into, { project_id: projectId, ...fields }, at);
    },
    async update(db: Executor, id: number, set: Partial<PlanningValues[T]>, at: string): Promise<void> {
      const fields: Partial<PlanningValues[keyof PlanningValues]> = set;
      await db
        .updateTable(into)
        .set({ ...fields, updated_at: at })
        .where('id', '=', id)
        .execute();
    },
  };
}

export const {
  pageOfProject: labelsPage,
  findVisible: findVisibleLabel,
  insert: insertLabel,
  update: updateLabelFields,
} = planningQueries('labels', 'l', selectLabels, { own: {}, defaultOrdering: 'name' });
export type LabelRow = NonNullable<Awaited<ReturnType<typeof findVisibleLabel>>>;

export const {
  pageOfProject: milestonesPage,
  findVisible: findVisibleMilestone,
  insert: insertMilestone,
  update: updateMilestoneFields,
} = planningQueries('milestones', 'm', selectMilestones, {
  own: { due_date: 'due_date_sort', state: 'm.state' },
  defaultOrdering: 'due_date',
});
export type MilestoneRow = NonNullable<Awaited<ReturnType<typeof findVisibleMilestone>>>;

export const {
  pageOfProject: sprintsPage,
  findVisible: findVisibleSprint,
  insert: insertSprint,
  update: updateSprintFields,
} = planningQueries('sprints', 'sp', selectSprints, {
  own: { start_date: 'start_date_sort', end_date: 'end_date_sort', state: 'sp.state' },
  defaultOrdering: 'start_date',
});
export type SprintRow = NonNullable<Awaited<ReturnType<typeof findVisibleSprint>>>;

export async function deletePlanningRow(
  db: Executor,
  table: 'labels' | 'milestones' | 'sprints',
  id: number,
): Promise<void> {
  await db.deleteFrom(table).where('id', '=', id).execute();
}

/** The project's active sprint other than `exceptId`, if any. */
export function findOtherActiveSprint(db: Executor, projectId: number, exceptId: number | null) {
  let query = db
    .selectFrom('sprints')
    .select(['id', 'name'])
    .where('project_id', '=', projectId)
    .where('state', '=', 'active');
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  return query.executeTakeFirst();
}

/** A sprint of the project named `name` other than `exceptId`, if any. */
export function findSprintNamed(db: Executor, projectId: number, name: string, exceptId: number | null) {
  let query = db.selectFrom('sprints').select('id').where('project_id', '=', projectId).where('name', '=', name);
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  return query.executeTakeFirst();
}

/** Ids of the tasks carrying the label, or in the milestone or sprint, in id order. */
export async function tasksCarrying(
  db: Executor,
  item: { kind: 'label' | 'milestone' | 'sprint'; id: number },
): Promise<number[]> {
  if (item.kind === 'label') {
    const rows = await db
      .selectFrom('task_labels')
      .select('task_id')
      .where('label_id', '=', item.id)
      .orderBy('task_id')
      .execute();
    return rows.map((r) => r.task_id);
  }
  const column = item.kind === 'milestone' ? 'milestone_id' : 'sprint_id';
  return (await db.selectFrom('tasks').select('id').where(column, '=', item.id).orderBy('id').execute()).map(
    (r) => r.id,
  );
}

/** The tasks of a sprint whose status is not in the done category, in id order (the order writes lock in). */
export async function openTasksOfSprint(db: Executor, sprintId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('tasks as t')
    .innerJoin('statuses as s', 's.id', 't.status_id')
    .select('t.id')
    .where('t.sprint_id', '=', sprintId)
    .where('s.category', '!=', 'done')
    .orderBy('t.id')
    .execute();
  return rows.map((r) => r.id);
}
