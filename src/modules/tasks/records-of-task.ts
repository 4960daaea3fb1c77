import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { foundOr404 } from '../../http/errors.ts';
import type { PageRequest, Pagination } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { visibleTask } from './task.service.ts';

/** The queries of one kind of task record, as recordsOfTaskQueries builds them. */
export interface RecordQueries<O extends { id: number }, V> {
  ofTask: (db: Executor, taskId: number, page: PageRequest) => Promise<{ rows: O[]; pagination: Pagination }>;
  find: (db: Executor, id: number) => Promise<O | undefined>;
  findVisible: (db: Executor, principal: Principal, id: number) => Promise<V | undefined>;
}

/**
 * The reads every kind of task record (comments, time entries, attachments) shares; its writes
 * and rules stay in its own module. `noun` is what a 404 names, e.g. `Time entry`.
 */
export function recordsOfTask<O extends { id: number }, V, J>(
  noun: string,
  queries: RecordQueries<O, V>,
  present: (row: O) => J,
) {
  const load = async (db: Executor, id: number): Promise<J> => present(await foundOr404(queries.find(db, id), noun));
  /** The record if its task is visible to the caller, with what its rules need (404 otherwise). */
  const visible = (ctx: { db: Executor }, principal: Principal, id: number): Promise<V> =>
    foundOr404(queries.findVisible(ctx.db, principal, id), noun);
  return {
    load,
    visible,
    /** One page of the records of a task the caller sees (404 if it cannot see the task). */
    async list(ctx: AppContext, principal: Principal, taskKey: string, page: PageRequest) {
      const task = await visibleTask(ctx, principal, taskKey);
      const { rows, pagination } = await queries.ofTask(ctx.db, task.id, page);
      return { data: rows.map((row) => present(row)), pagination };
    },
    async get(ctx: AppContext, principal: Principal, id: number): Promise<J> {
      await visible(ctx, principal, id);
      return load(ctx.db, id);
    },
  };
}
