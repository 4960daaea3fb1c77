import type { Executor } from '../../db/database.ts';
import { paginate } from '../../db/paginate.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { visibleProjectIds } from '../../policy/visibility.repository.ts';

/** A transition's two statuses, by id and by name (from the joins `fs` and `ts`). */
const ENDS = [
  't.from_status_id as from_status',
  't.to_status_id as to_status',
  'fs.name as from_status_name',
  'ts.name as to_status_name',
] as const;

/** Transitions of the workflows of the caller's visible projects (any other reads as absent), with status names. */
function visibleTransitions(db: Executor, principal: Principal, filters: { workflow?: number } = {}) {
  const query = db
    .selectFrom('transitions as t')
    .innerJoin('workflows as w', 'w.id', 't.workflow_id')
    .innerJoin('statuses as fs', 'fs.id', 't.from_status_id')
    .innerJoin('statuses as ts', 'ts.id', 't.to_status_id')
    .where('w.project_id', 'in', visibleProjectIds(db, principal))
    .select([
      't.id',
      't.workflow_id as workflow',
      'w.project_id as project',
      ...ENDS,
      't.name',
      't.created_at',
      't.updated_at',
    ]);
  return filters.workflow === undefined ? query : query.where('t.workflow_id', '=', filters.workflow);
}

export type TransitionRow = NonNullable<Awaited<ReturnType<typeof findVisibleTransition>>>;

export function findVisibleTransition(db: Executor, principal: Principal, id: number) {
  return visibleTransitions(db, principal).where('t.id', '=', id).executeTakeFirst();
}

/** The transitions of the given workflows, with status names, in id order. */
export function transitionsOfWorkflows(db: Executor, workflowIds: number[]) {
  return db
    .selectFrom('transitions as t')
    .innerJoin('statuses as fs', 'fs.id', 't.from_status_id')
    .innerJoin('statuses as ts', 'ts.id', 't.to_status_id')
    .where('t.workflow_id', 'in', workflowIds)
    .select(['t.id', 't.workflow_id', ...ENDS, 't.name'])
    .orderBy('t.id')
    .execute();
}

export function findTransitionBetween(db: Executor, workflowId: number, from: number, to: number) {
  return db
    .selectFrom('transitions')
    .select('id')
    .where('workflow_id', '=', workflowId)
    .where('from_status_id', '=', from)
    .where('to_status_id', '=', to)
    .executeTakeFirst();
}

export interface TransitionValues {
  workflow_id: number;
  from_status_id: number;
  to_status_id: number;
  name: string;
}

/** Inserts transitions (one or many); returns their ids in order. */
export async function insertTransitions(db: Executor, rows: TransitionValues[], at: string): Promise<number[]> {
  const inserted = await db
    .insertInto('transitions')
    .values(rows.map((row) => ({ ...row, created_at: at, updated_at: at })))
    .returning('id')
    .execute();
  return inserted.map((r) => r.id);
}

export async function updateTransitionRow(
  db: Executor,
  id: number,
  set: { from_status_id: number; to_status_id: number; name: string },
  at: string,
): Promise<void> {
  await db
    .updateTable('transitions')
    .set({ ...set, updated_at: at })
    .where('id', '=', id)
    .execute();
}

export async function deleteTransitionRow(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('transitions').where('id', '=', id).execute();
}

const PAGING = {
  idColumn: 't.id',
  orderable: {
    id: 't.id',
    workflow: 't.workflow_id',
    name: 't.name',
    created_at: 't.created_at',
    updated_at: 't.updated_at',
  },
  defaultOrdering: 'workflow',
} as const;

/** The transitions the caller sees, one page in the orderings a list offers. */
export function transitionsPage(db: Executor, principal: Principal, filters: { workflow?: number }, page: PageRequest) {
  return paginate(visibleTransitions(db, principal, filters), page, PAGING);
}
