import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { TaskChangesTable } from '../../db/schema.ts';
import type { Principal } from '../auth/principal.ts';
import { visibleProjectIds } from '../../policy/visibility.repository.ts';

/** A change record: `task` is the task JSON right after the change, as text; null for a deletion. */
export type TaskChange = Omit<Insertable<TaskChangesTable>, 'id'>;

/**
 * The one writer of the changes feed, in the transaction of every task write: the insert, which
 * task-records.repository.ts sends with the write's other records.
 */
export function taskChangeInsert(db: Executor, change: TaskChange) {
  return db.insertInto('task_changes').values(change);
}

/** Changes of the projects the caller sees, from `since` on when given, for one page (see paginate). */
export function changesVisibleTo(db: Executor, principal: Principal, since: string | null) {
  const query = db
    .selectFrom('task_changes as c')
    .select(['c.id', 'c.action', 'c.task_key', 'c.task', 'c.changed_at'])
    .where('c.project_id', 'in', visibleProjectIds(db, principal));
  return since ? query.where('c.changed_at', '>=', since) : query;
}
