import type { Pagination } from './pagination.ts';

export function ok<T>(data: T): { success: true; data: T } {
  return { success: true, data };
}

export function list<T>(data: T[], pagination: Pagination): { success: true; data: T[]; pagination: Pagination } {
  return { success: true, data, pagination };
}

/** The list envelope of a page as list services return it. */
export function listOf<T>(page: { data: T[]; pagination: Pagination }): {
  success: true;
  data: T[];
  pagination: Pagination;
} {
  return list(page.data, page.pagination);
}
