import { sql, type SelectQueryBuilder } from 'kysely';
import { encodeCursor, type PageRequest, type Pagination, parseOrdering } from '../http/pagination.ts';

/** The one pagination implementation behind every list endpoint: a repository's query, one page of it. */
export interface PaginateOptions {
  /** The primary-key column reference, e.g. `t.id`. Cursor order and the final tie-breaker. */
  idColumn: string;
  /** Public ordering field name -> column reference. */
  orderable: Record<string, string>;
  /** Applied in offset mode when the client sends no `ordering`, e.g. `-created_at`. */
  defaultOrdering?: string;
  /**
   * Offset mode: counts the same rows as `query` more cheaply (it must select `count`). Without
   * it the count is `query` with its selection replaced, which keeps any costly CTE it carries.
   */
  count?: () => Promise<{ count: number | string }>;
  /**
   * Offset mode without `count`: take the count in the page's own statement (a window over
   * every match), one statement instead of two. For SQLite, where statements run one after
   * another on one connection; a page past the end still counts with a statement of its own.
   * Every match goes through the window and the sort, so `query` should select few columns
   * (the task lists select ids, then read the page's rows by id).
   */
  countWithPage?: boolean;
}

/**
 * Runs `query` for one page. `query` must select an `id` (the primary key) among its columns.
 */
export async function paginate<O extends { id: number }>(
  // Any table set: the helper only adds ORDER BY, LIMIT and a WHERE on the id column.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query: SelectQueryBuilder<any, any, O>,
  request: PageRequest,
  options: PaginateOptions,
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
  if (options.countWithPage && !options.count) {
    const counted = await ordered
      .select(sql<number>`count(*) over ()`.as('page_total'))
      .limit(request.limit)
      .offset(request.offset)
      .execute();
    const total = counted[0]?.page_total ?? (await count()).count;
    // The rows keep their `page_total` rather than being copied without it: callers read the
    // columns they need, and response schemas leave unknown properties out.
    return { rows: counted, pagination: pagination(total) };
  }
  const [rows, countRow] = await Promise.all([ordered.limit(request.limit).offset(request.offset).execute(), count()]);
  return { rows, pagination: pagination(countRow.count) };
}
