import { sql, type SelectQueryBuilder, type StringReference } from 'kysely';
import { encodeCursor, type PageRequest, type Pagination, parseOrdering } from '../http/pagination.ts';

/** The one pagination implementation behind every list endpoint: a repository's query, one page of it. */
// The defaults let a caller name the options' type before it knows the query's tables.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface PaginateOptions<DB = any, TB extends keyof DB = any, O = any> {
  /** The primary-key column reference, e.g. `t.id`. Cursor order and the final tie-breaker. */
  idColumn: StringReference<DB, TB>;
  /**
   * Public ordering field name -> a column of the query's tables or of its selection (checked by
   * the compiler, so a renamed alias fails the build rather than a request).
   */
  orderable: Record<string, StringReference<DB, TB> | (keyof O & string)>;
  /** Applied in offset mode when the client sends no `ordering`, e.g. `-created_at`. */
  defaultOrdering?: string;
  /**
   * Offset mode: counts the same rows as `query` more cheaply (it must select `count`). Without
   * it the count is `query` with its selection replaced, which keeps any costly CTE it carries.
   */
  count?: () => Promise<{ count: number | string }>;
}

/**
 * Runs `query` for one page. `query` must select an `id` (the primary key) among its columns.
 */
export async function paginate<DB, TB extends keyof DB, O extends { id: number }>(
  query: SelectQueryBuilder<DB, TB, O>,
  request: PageRequest,
  options: PaginateOptions<DB, TB, O>,
): Promise<{ rows: O[]; pagination: Pagination }> {
  const id = sql.ref(options.idColumn);
  if (request.mode === 'cursor') {
    const rows = await query
      .where(id, '>', request.afterId)
      .clearOrderBy()
      .orderBy(id, 'asc')
      .limit(request.limit + 1)
      .execute();
    const hasMore = rows.length > request.limit;
    const page = hasMore ? rows.slice(0, request.limit) : rows;
    const last = page.at(-1);
    return {
      rows: page,
      pagination: {
        limit: request.limit,
        next_cursor: encodeCursor(last ? last.id : request.afterId),
        has_more: hasMore,
      },
    };
  }

  const ordering = parseOrdering(request.ordering ?? options.defaultOrdering ?? '', options.orderable);
  let ordered = query.clearOrderBy();
  for (const [column, direction] of ordering) ordered = ordered.orderBy(sql.ref(column), direction);
  ordered = ordered.orderBy(id, ordering.at(-1)?.[1] ?? 'asc');

  const count = () =>
    options.count
      ? options.count()
      : (query
          .clearSelect()
          .clearOrderBy()
          .select(sql<number>`count(*)`.as('count'))
          .executeTakeFirstOrThrow() as Promise<{ count: number | string }>);
  const pagination = (total: number | string) => ({
    count: Number(total),
    limit: request.limit,
    offset: request.offset,
  });
  const [rows, countRow] = await Promise.all([ordered.limit(request.limit).offset(request.offset).execute(), count()]);
  return { rows, pagination: pagination(countRow.count) };
}
