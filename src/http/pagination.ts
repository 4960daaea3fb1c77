import { sql, type SelectQueryBuilder } from 'kysely';
import { invalid } from './errors.ts';

/**
 * The one pagination implementation behind every list endpoint (spec 4.1).
 * Offset mode is the default; sending `cursor` (even empty) selects cursor mode, which walks
 * the primary key ascending and ignores `ordering`.
 */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

export interface PaginationQueryInput {
  limit?: number;
  page_size?: number;
  offset?: number;
  page?: number;
  cursor?: string;
  ordering?: string;
}

export type PageRequest =
  | { mode: 'offset'; limit: number; offset: number; ordering: string | undefined }
  | { mode: 'cursor'; limit: number; afterId: number };

export type OffsetPagination = { count: number; limit: number; offset: number };
export type CursorPagination = { limit: number; next_cursor: string; has_more: boolean };
export type Pagination = OffsetPagination | CursorPagination;

export function encodeCursor(afterId: number): string {
  return Buffer.from(JSON.stringify({ v: 1, after: afterId })).toString('base64url');
}

/** Decodes a cursor this service issued; anything else is a 400, never a 500. */
export function decodeCursor(cursor: string): number {
  if (cursor === '') return 0;
  const bad = () => invalid({ cursor: 'not a cursor issued by this endpoint; start again with an empty cursor' });
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (typeof parsed !== 'object' || parsed === null) throw bad();
  const { v, after } = parsed as { v?: unknown; after?: unknown };
  if (v !== 1 || typeof after !== 'number' || !Number.isSafeInteger(after) || after < 0) throw bad();
  return after;
}

export function pageRequest(query: PaginationQueryInput): PageRequest {
  const limit = query.limit ?? query.page_size ?? DEFAULT_LIMIT;
  if (query.cursor !== undefined) return { mode: 'cursor', limit, afterId: decodeCursor(query.cursor) };
  const offset = query.offset ?? (query.page !== undefined ? (query.page - 1) * limit : 0);
  return { mode: 'offset', limit, offset, ordering: query.ordering };
}

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
}

function parseOrdering(ordering: string, orderable: Record<string, string>): Array<[string, 'asc' | 'desc']> {
  return ordering
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const desc = part.startsWith('-');
      const field = desc ? part.slice(1) : part;
      // Own keys only: "__proto__" or "toString" would otherwise find Object.prototype members (a 500).
      const column = Object.hasOwn(orderable, field) ? orderable[field] : undefined;
      if (!column) {
        throw invalid(
          { ordering: `unknown field "${field}"; allowed: ${Object.keys(orderable).join(', ') || 'none'}` },
          'Invalid ordering.',
        );
      }
      return [column, desc ? 'desc' : 'asc'];
    });
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
      pagination: { limit: request.limit, next_cursor: encodeCursor(last ? last.id : request.afterId), has_more: hasMore },
    };
  }

  const ordering = parseOrdering(request.ordering ?? options.defaultOrdering ?? '', options.orderable);
  let ordered = query.clearOrderBy();
  for (const [column, direction] of ordering) ordered = ordered.orderBy(sql.ref(column), direction);
  ordered = ordered.orderBy(id, ordering.at(-1)?.[1] ?? 'asc');

  const [rows, countRow] = await Promise.all([
    ordered.limit(request.limit).offset(request.offset).execute(),
    options.count
      ? options.count()
      : (query
          .clearSelect()
          .clearOrderBy()
          .select(sql<number>`count(*)`.as('count'))
          .executeTakeFirstOrThrow() as Promise<{ count: number | string }>),
  ]);
  return {
    rows,
    pagination: { count: Number(countRow.count), limit: request.limit, offset: request.offset },
  };
}
