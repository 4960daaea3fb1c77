import { sql } from 'kysely';
import type { Executor, Trx } from '../../db/database.ts';
import type { Principal } from '../auth/principal.ts';
import { visibleProjectIds } from '../../policy/index.ts';

/**
 * Queries for statuses, transitions and workflows. Every select is confined to the caller's
 * visible projects, so a row of any other project reads as absent (404).
 */

export function selectStatuses(db: Executor, principal: Principal) {
  return db
    .selectFrom('statuses as s')
    .innerJoin('projects as sp', 'sp.id', 's.project_id')
    .where('s.project_id', 'in', visibleProjectIds(db, principal))
    .select([
      's.id',
      's.project_id as project',
      's.name',
      's.category',
      's.position',
      sql<number>`case when sp.default_status_id = s.id then 1 else 0 end`.as('is_default'),
      's.created_at',
      's.updated_at',
    ]);
}

export type StatusRow = Awaited<ReturnType<ReturnType<typeof selectStatuses>['executeTakeFirstOrThrow']>>;

export function presentStatus(row: StatusRow) {
  return { ...row, is_default: Number(row.is_default) === 1 };
}

export function selectTransitions(db: Executor, principal: Principal) {
  return db
    .selectFrom('transitions as t')
    .innerJoin('workflows as w', 'w.id', 't.workflow_id')
    .innerJoin('statuses as fs', 'fs.id', 't.from_status_id')
    .innerJoin('statuses as ts', 'ts.id', 't.to_status_id')
    .where('w.project_id', 'in', visibleProjectIds(db, principal))
    .select([
      't.id',
      't.workflow_id as workflow',
      'w.project_id as project',
      't.from_status_id as from_status',
      't.to_status_id as to_status',
      'fs.name as from_status_name',
      'ts.name as to_status_name',
      't.name',
      't.created_at',
      't.updated_at',
    ]);
}

export type TransitionRow = Awaited<ReturnType<ReturnType<typeof selectTransitions>['executeTakeFirstOrThrow']>>;

export function presentTransition(row: TransitionRow) {
  return {
    id: row.id,
    workflow: row.workflow,
    from_status: row.from_status,
    to_status: row.to_status,
    from_status_name: row.from_status_name,
    to_status_name: row.to_status_name,
    name: row.name,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function selectWorkflows(db: Executor, principal: Principal) {
  return db
    .selectFrom('workflows as w')
    .innerJoin('projects as wp', 'wp.id', 'w.project_id')
    .where('w.project_id', 'in', visibleProjectIds(db, principal))
    .select([
      'w.id',
      'w.project_id as project',
      'w.name',
      'w.description',
      sql<number>`case when wp.workflow_id = w.id then 1 else 0 end`.as('active'),
      'w.created_at',
      'w.updated_at',
    ]);
}

export type WorkflowRow = Awaited<ReturnType<ReturnType<typeof selectWorkflows>['executeTakeFirstOrThrow']>>;

/** Workflows with their transitions embedded, fetched in one extra query for the whole page. */
export async function presentWorkflows(db: Executor, rows: WorkflowRow[]) {
  if (rows.length === 0) return [];
  const transitions = await db
    .selectFrom('transitions as t')
    .innerJoin('statuses as fs', 'fs.id', 't.from_status_id')
    .innerJoin('statuses as ts', 'ts.id', 't.to_status_id')
    .where(
      't.workflow_id',
      'in',
      rows.map((r) => r.id),
    )
    .select([
      't.id',
      't.workflow_id',
      't.from_status_id as from_status',
      't.to_status_id as to_status',
      'fs.name as from_status_name',
      'ts.name as to_status_name',
      't.name',
    ])
    .orderBy('t.id')
    .execute();
  return rows.map((row) => ({
    ...row,
    active: Number(row.active) === 1,
    transitions: transitions.filter((t) => t.workflow_id === row.id).map(({ workflow_id: _workflow, ...t }) => t),
  }));
}

/** Rewrites board positions to 0..n-1 in the given order, touching only rows whose position changes. */
export async function writeStatusPositions(trx: Trx, orderedIds: number[], current: Map<number, number>, now: string): Promise<void> {
  for (const [position, id] of orderedIds.entries()) {
    if (current.get(id) === position) continue;
    await trx.updateTable('statuses').set({ position, updated_at: now }).where('id', '=', id).execute();
  }
}

/** The project's statuses in board order, as id -> position. */
export async function statusPositions(trx: Trx, projectId: number): Promise<Map<number, number>> {
  const rows = await trx
    .selectFrom('statuses')
    .select(['id', 'position'])
    .where('project_id', '=', projectId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return new Map(rows.map((r) => [r.id, r.position]));
}
