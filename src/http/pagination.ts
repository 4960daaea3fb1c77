import { invalid } from './errors.ts';

/**
 * Page requests of every list endpoint (docs/api/pagination.md); src/db/paginate.ts runs them.
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

/** `fields` carry what an endpoint needs to know about the walk (the changes feed's horizon). */
export function encodeCursor(afterId: number, fields: Record<string, number> = {}): string {
  return Buffer.from(JSON.stringify({ v: 1, after: afterId, ...fields })).toString('base64url');
}

/** A whole-number field `encodeCursor` put in a cursor that decodeCursor accepted; undefined when absent. */
export function cursorField(cursor: string, name: string): number | undefined {
  const value: unknown = (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>)[
    name
  ];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
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

export function parseOrdering(ordering: string, orderable: Record<string, string>): Array<[string, 'asc' | 'desc']> {
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
