import type { Executor } from '../db/database.ts';
import type { PageRequest, Pagination } from '../http/pagination.ts';
import type { Principal } from '../identity/principal.ts';

/**
 * A list service: one page of what the caller sees under `filters` (a repository's page
 * function, which owns the orderings), each row presented. Takes the request's context or the
 * open transaction.
 */
export function visiblePages<F, O, J>(
  pageVisible: (
    db: Executor,
    principal: Principal,
    filters: F,
    page: PageRequest,
  ) => Promise<{ rows: O[]; pagination: Pagination }>,
  present: (row: O) => J,
) {
  return async (ctx: { db: Executor }, principal: Principal, filters: F, page: PageRequest) => {
    const { rows, pagination } = await pageVisible(ctx.db, principal, filters, page);
    return { data: rows.map((row) => present(row)), pagination };
  };
}
