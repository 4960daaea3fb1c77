import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { SavedViewsTable } from '../../db/schema.ts';
import type { Principal } from '../../identity/principal.ts';
import { paginate } from '../../db/paginate.ts';
import { visibleViews } from '../../policy/index.ts';

/**
 * One page of the visible views, by name unless the caller orders them otherwise: of one
 * project (its id), of none (null), or of any (undefined).
 */
export function visibleViewsPage(
  db: Executor,
  principal: Principal,
  projectId: number | null | undefined,
  page: PageRequest,
) {
  let query = visibleViewRows(db, principal);
  if (projectId === null) query = query.where('v.project_id', 'is', null);
  else if (projectId !== undefined) query = query.where('v.project_id', '=', projectId);
  return paginate(query, page, {
    idColumn: 'v.id',
    orderable: { name: 'v.name', created_at: 'v.created_at', updated_at: 'v.updated_at' },
    defaultOrdering: 'name',
  });
}

/** Visible views (policy's visibleViews) with their project's key and their creator. */
function visibleViewRows(db: Executor, principal: Principal) {
  return visibleViews(db, principal)
    .innerJoin('users as u', 'u.id', 'v.created_by')
    .leftJoin('projects as p', 'p.id', 'v.project_id')
    .select([
      'v.id',
      'v.name',
      'v.query',
      'v.layout',
      'v.group_by',
      'v.columns',
      'v.project_id',
      'p.key as project_key',
      'v.shared',
      'v.created_by',
      'u.name as creator_name',
      'u.handle as creator_handle',
      'v.created_at',
      'v.updated_at',
    ]);
}

export type ViewRow = NonNullable<Awaited<ReturnType<typeof findVisibleView>>>;

export function findVisibleView(db: Executor, principal: Principal, id: number) {
  return visibleViewRows(db, principal).where('v.id', '=', id).executeTakeFirst();
}

export async function insertView(db: Executor, values: Insertable<SavedViewsTable>): Promise<number> {
  return (await db.insertInto('saved_views').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateView(db: Executor, id: number, values: Updateable<SavedViewsTable>): Promise<void> {
  await db.updateTable('saved_views').set(values).where('id', '=', id).execute();
}

export async function deleteView(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('saved_views').where('id', '=', id).execute();
}
