import type { SelectQueryBuilder } from 'kysely';
import type { Executor } from '../db/database.ts';
import type { PaginateOptions } from '../db/paginate.ts';
import { presentPage } from '../db/present-page.ts';
import type { PageRequest } from '../http/pagination.ts';
import type { Principal } from '../modules/auth/principal.ts';

/**
 * A list service: one page of the rows `selectVisible` gives the caller under `filters` (see
 * presentPage), each presented. Takes the request's context or the open transaction.
 */
export function visiblePages<F, DB, TB extends keyof DB, O extends { id: number }, J>(
  selectVisible: (db: Executor, principal: Principal, filters: F) => SelectQueryBuilder<DB, TB, O>,
  options: PaginateOptions,
  present: (row: O) => J,
) {
  return (ctx: { db: Executor }, principal: Principal, filters: F, page: PageRequest) =>
    presentPage(selectVisible(ctx.db, principal, filters), page, options, present);
}
