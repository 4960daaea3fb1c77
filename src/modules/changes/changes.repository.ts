import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { paginate } from '../../db/paginate.ts';
import type { TaskChangesTable } from '../../db/schema.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { visibleProjectIds } from '../../policy/visibility.repository.ts';

/** A change record: `task` is the task JSON right after the change, as text; null for a deletion. */
export type TaskChange = Omit<Insertable<TaskChangesTable>, 'id'>;

/**
 * The one writer of the changes feed, in the transaction of every task write: the insert, which
 * task-writes.repository.ts sends with the write's other records.
 */
export function taskChangeInsert(db: Executor, change: TaskChange) {
  return db.insertInto('task_changes').values(change);
}

/** The feed is walked by cursor only: in id order, the order the changes were committed in. */
type CursorPageRequest = Extract<PageRequest, { mode: 'cursor' }>;

/** Changes of the projects the caller sees, from `since` on when given. */
function changesVisibleTo(db: Executor, principal: Principal, since: string | null) {
  const query = db
    .selectFrom('task_changes as c')
    .select(['c.id', 'c.action', 'c.task_key', 'c.task', 'c.changed_at'])
    .where('c.project_id', 'in', visibleProjectIds(db, principal));
  return since ? query.where('c.changed_at', '>=', since) : query;
}

/** The retention_horizons row of the changes feed (see src/worker/retention.ts). */
export const CHANGES_FEED_HORIZON = 'task_changes';

/** Where the feed's retention has cut it: generation 0 (and no time) while nothing was ever cut. */
export async function changesFeedHorizon(db: Executor): Promise<{ purgedBefore: string | null; generation: number }> {
  const row = await db
    .selectFrom('retention_horizons')
    .select(['purged_before', 'generation'])
    .where('name', '=', CHANGES_FEED_HORIZON)
    .executeTakeFirst();
  return row ? { purgedBefore: row.purged_before, generation: row.generation } : { purgedBefore: null, generation: 0 };
}

/** These change records, with what each task was before the change (see taskStatesOf). */
export function changesByIds(db: Executor, ids: number[]) {
  return db
    .selectFrom('task_changes')
    .select(['id', 'task_id', 'action', 'task', 'before'])
    .where('id', 'in', ids.length ? ids : [-1])
    .execute();
}

/** The latest change record of each task with one of these keys that still exists: its state now. */
export function latestChangeIdsOf(db: Executor, taskKeys: string[]) {
  return db
    .selectFrom('tasks as t')
    .innerJoin('task_changes as c', 'c.task_id', 't.id')
    .select(['t.key', (eb) => eb.fn.max('c.id').as('id')])
    .where('t.key', 'in', taskKeys.length ? taskKeys : [''])
    .groupBy('t.key')
    .execute();
}

/** One page of the changes of the projects the caller sees, from `since` on when given. */
export function changesPage(db: Executor, principal: Principal, since: string | null, page: CursorPageRequest) {
  return paginate(changesVisibleTo(db, principal, since), page, { idColumn: 'c.id', orderable: {} });
}

/** changesPage with what a query is judged by: the task's id and what it was before the change. */
export function changeStatesPage(db: Executor, principal: Principal, since: string | null, page: CursorPageRequest) {
  return paginate(changesVisibleTo(db, principal, since).select(['c.task_id', 'c.before']), page, {
    idColumn: 'c.id',
    orderable: {},
  });
}
