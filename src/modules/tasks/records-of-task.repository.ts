import { sql, type SelectQueryBuilder } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { paginate, type PaginateOptions } from '../../db/paginate.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';

/**
 * The reads of one kind of task record (comments, time entries, attachments), built from its two
 * selections: `rows` for pages and single reads, `visible` on the caller's visible tasks (with
 * what the record's rules need). `alias` is the record table's alias in both; `paging` its
 * orderings.
 */
export function recordsOfTaskQueries<O extends { id: number }, V>(
  alias: string,
  // Any table set: only a WHERE on the record's own columns is added.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  rows: (db: Executor) => SelectQueryBuilder<any, any, O>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  visible: (db: Executor, principal: Principal) => SelectQueryBuilder<any, any, V>,
  paging: PaginateOptions,
) {
  const id = sql.ref(`${alias}.id`);
  return {
    /** One page of the task's records. */
    ofTask: (db: Executor, taskId: number, page: PageRequest) =>
      paginate(rows(db).where(sql.ref(`${alias}.task_id`), '=', taskId), page, paging),
    find: (db: Executor, recordId: number): Promise<O | undefined> =>
      rows(db).where(id, '=', recordId).executeTakeFirst(),
    findVisible: (db: Executor, principal: Principal, recordId: number): Promise<V | undefined> =>
      visible(db, principal).where(id, '=', recordId).executeTakeFirst(),
  };
}
