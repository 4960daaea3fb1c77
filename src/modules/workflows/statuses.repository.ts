import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { paginate } from '../../db/paginate.ts';
import type { PageRequest } from '../../http/pagination.ts';
import { insertWithTimestamps } from '../../db/insert-with-timestamps.ts';
import type { StatusCategory } from '../../db/schema.ts';
import type { Principal } from '../../identity/principal.ts';
import { visibleProjectIds } from '../../policy/visibility.repository.ts';

/** Statuses of the caller's visible projects (any other reads as absent), flagging each project's default. */
function visibleStatuses(
  db: Executor,
  principal: Principal,
  filters: { project?: number; category?: StatusCategory } = {},
) {
  let query = db
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
  if (filters.project !== undefined) query = query.where('s.project_id', '=', filters.project);
  if (filters.category !== undefined) query = query.where('s.category', '=', filters.category);
  return query;
}

export type StatusRow = NonNullable<Awaited<ReturnType<typeof findVisibleStatus>>>;

export function findVisibleStatus(db: Executor, principal: Principal, id: number) {
  return visibleStatuses(db, principal).where('s.id', '=', id).executeTakeFirst();
}

/** A project's statuses in board order. */
export function statusesInBoardOrder(db: Executor, principal: Principal, projectId: number) {
  return visibleStatuses(db, principal, { project: projectId }).orderBy('s.position').orderBy('s.id').execute();
}

/** The names of those of `ids` that are statuses of the project. */
export async function statusNames(db: Executor, projectId: number, ids: number[]): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('statuses')
    .select(['id', 'name'])
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

export function insertStatus(
  db: Executor,
  { at, ...values }: { project_id: number; name: string; category: StatusCategory; position: number; at: string },
): Promise<number> {
  return insertWithTimestamps(db, 'statuses', values, at);
}

export async function updateStatusFields(
  db: Executor,
  id: number,
  set: { name?: string; category?: StatusCategory },
  at: string,
): Promise<void> {
  await db
    .updateTable('statuses')
    .set({ ...set, updated_at: at })
    .where('id', '=', id)
    .execute();
}

/** Keeps a rename, in the rename's transaction: reports read old names in activity through it. */
export async function recordStatusRename(
  db: Executor,
  rename: { status_id: number; from_name: string; to_name: string; renamed_at: string },
): Promise<void> {
  await db.insertInto('status_renames').values(rename).execute();
}

export async function countTasksInStatus(db: Executor, statusId: number): Promise<number> {
  const { count } = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status_id', '=', statusId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function defaultStatusOf(db: Executor, projectId: number): Promise<number | null> {
  const row = await db
    .selectFrom('projects')
    .select('default_status_id')
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow();
  return row.default_status_id;
}

/** Deletes the status with every transition into or out of it. */
export async function deleteStatusWithTransitions(db: Executor, id: number): Promise<void> {
  await db
    .deleteFrom('transitions')
    .where((eb) => eb.or([eb('from_status_id', '=', id), eb('to_status_id', '=', id)]))
    .execute();
  await db.deleteFrom('statuses').where('id', '=', id).execute();
}

/** Rewrites board positions to 0..n-1 in the given order, touching only rows whose position changes. */
export async function writeStatusPositions(
  db: Executor,
  orderedIds: number[],
  current: Map<number, number>,
  now: string,
): Promise<void> {
  for (const [position, id] of orderedIds.entries()) {
    if (current.get(id) === position) continue;
    await db.updateTable('statuses').set({ position, updated_at: now }).where('id', '=', id).execute();
  }
}

/** The project's statuses in board order, as id -> position. */
export async function statusPositions(db: Executor, projectId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('statuses')
    .select(['id', 'position'])
    .where('project_id', '=', projectId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return new Map(rows.map((r) => [r.id, r.position]));
}

const PAGING = {
  idColumn: 's.id',
  orderable: {
    id: 's.id',
    project: 's.project_id',
    position: 's.position',
    name: 's.name',
    category: 's.category',
    created_at: 's.created_at',
    updated_at: 's.updated_at',
  },
  defaultOrdering: 'project,position',
} as const;

/** The statuses the caller sees, one page in the orderings a list offers. */
export function statusesPage(
  db: Executor,
  principal: Principal,
  filters: { project?: number; category?: StatusCategory },
  page: PageRequest,
) {
  return paginate(visibleStatuses(db, principal, filters), page, PAGING);
}
