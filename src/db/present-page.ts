import type { SelectQueryBuilder } from 'kysely';
import type { Pagination, PageRequest } from '../http/pagination.ts';
import { paginate, type PaginateOptions } from './paginate.ts';

/** One page of `query` (see paginate), each row presented: what most list services answer. */
export async function presentPage<O extends { id: number }, J>(
  // Any table set, as paginate takes.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query: SelectQueryBuilder<any, any, O>,
  request: PageRequest,
  options: PaginateOptions,
  present: (row: O) => J,
): Promise<{ data: J[]; pagination: Pagination }> {
  const { rows, pagination } = await paginate(query, request, options);
  return { data: rows.map((row) => present(row)), pagination };
}
