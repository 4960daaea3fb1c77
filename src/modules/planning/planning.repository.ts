import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Principal } from '../auth/principal.ts';
import { ApiError } from '../../http/errors.ts';
import { visibleProjectIds } from '../../policy/index.ts';

/**
 * Labels, milestones and sprints of the caller's visible projects (anything else reads as
 * absent: 404), each with the number of tasks carrying it.
 *
 * Date columns are also selected as `*_sort` with missing dates mapped past every real one,
 * so ordering by a date puts undated rows last (ascending) on both dialects alike; SQLite and
 * PostgreSQL disagree on where NULLs sort.
 */
const UNDATED = '9999-12-31';

export function selectLabels(db: Executor, principal: Principal) {
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
      eb.selectFrom('task_labels as tl').select(eb.fn.countAll<number>().as('n')).whereRef('tl.label_id', '=', 'l.id').as('task_count'),
      'l.created_at',
      'l.updated_at',
    ]);
}

export type LabelRow = Awaited<ReturnType<ReturnType<typeof selectLabels>['executeTakeFirstOrThrow']>>;

export function presentLabel(row: LabelRow) {
  return {
    id: row.id,
    project: row.project,
    name: row.name,
    color: row.color,
    description: row.description,
    task_count: Number(row.task_count ?? 0),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function selectMilestones(db: Executor, principal: Principal) {
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
      eb.selectFrom('tasks as mt').select(eb.fn.countAll<number>().as('n')).whereRef('mt.milestone_id', '=', 'm.id').as('task_count'),
      'm.created_at',
      'm.updated_at',
    ]);
}

export type MilestoneRow = Awaited<ReturnType<ReturnType<typeof selectMilestones>['executeTakeFirstOrThrow']>>;

export function presentMilestone(row: MilestoneRow) {
  return {
    id: row.id,
    project: row.project,
    name: row.name,
    description: row.description,
    due_date: row.due_date,
    state: row.state,
    task_count: Number(row.task_count ?? 0),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function selectSprints(db: Executor, principal: Principal) {
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
      eb.selectFrom('tasks as st').select(eb.fn.countAll<number>().as('n')).whereRef('st.sprint_id', '=', 'sp.id').as('task_count'),
      'sp.created_at',
      'sp.updated_at',
    ]);
}

export type SprintRow = Awaited<ReturnType<ReturnType<typeof selectSprints>['executeTakeFirstOrThrow']>>;

export function presentSprint(row: SprintRow) {
  return {
    id: row.id,
    project: row.project,
    name: row.name,
    goal: row.goal,
    start_date: row.start_date,
    end_date: row.end_date,
    state: row.state,
    task_count: Number(row.task_count ?? 0),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export const nameTaken = (what: string, name: string) =>
  new ApiError('ALREADY_EXISTS', `The project already has a ${what} named "${name}".`, { field: 'name' });
