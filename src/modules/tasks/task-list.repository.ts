import type { Db, Dialect } from '../../db/database.ts';
import { paginate } from '../../db/paginate.ts';
import { preparedIn, type PreparedContext } from '../../db/prepared.ts';
import type { PageRequest, Pagination } from '../../http/pagination.ts';
import type { Ordering } from '../query/ast.ts';
import { orderedPageIds } from '../query/query.repository.ts';
import {
  countTasksUpTo,
  listedTasks,
  taskExtrasByIds,
  type TaskExtrasRow,
  taskListIds,
  type TaskRow,
  taskRowsWithExtrasByIdList,
  type TaskRowWithExtras,
  type TasksQuery,
} from './task.repository.ts';

/** Where a task list is read: the database, its dialect and the statements compiled for it. */
export type TaskListContext = PreparedContext & { readonly dialect: Dialect };

/** A listed task: its row and the extras the task JSON needs (see presentTaskRow). */
export interface ListedTask {
  row: TaskRow;
  extras: TaskExtrasRow;
}

/** One page of listed tasks. */
export interface TaskListPage {
  tasks: ListedTask[];
  pagination: Pagination;
}

const ORDERABLE = {
  created_at: 't.created_at',
  updated_at: 't.updated_at',
  // Both list queries join priorities for this (listedTasks, taskListIds).
  priority: 'pr.position',
  // An output alias (dueSort in task.repository.ts), so tasks without a due date sort last on both databases.
  due_date: 'due_sort',
  key: 't.number',
} as const;

/**
 * How far past a page an offset page's `pagination.count` counts: exactly up to offset + limit +
 * 1,000 matches, and beyond that it says offset + limit + 1,001, "more than offset + limit +
 * 1,000" (docs/api/pagination.md). Counting every match cost a first page of a 250,000-task
 * project 29 ms on PostgreSQL; counted this far, a page costs the same whatever the
 * project's size, and a client walking pages until `offset >= count` still reaches the end.
 */
const LIST_COUNT_MARGIN = 1000;

/** The count of an offset page, capped (LIST_COUNT_MARGIN; the filters need nothing joined); a cursor page has none. */
function cappedCount(ctx: TaskListContext, matching: TasksQuery, page: PageRequest) {
  return () =>
    page.mode === 'offset'
      ? countTasksUpTo(ctx.db, matching, page.offset + page.limit + LIST_COUNT_MARGIN + 1)
      : Promise.resolve({ count: 0 });
}

const withOwnExtras = (rows: TaskRowWithExtras[]): ListedTask[] => rows.map((row) => ({ row, extras: row }));

/**
 * One page of `matching` in a list's ordering. Two statements whatever the page size, and a
 * capped count (LIST_COUNT_MARGIN). An offset page on PostgreSQL reads its rows, then the extras
 * of exactly those rows. Otherwise the page's ids come first, then its rows with their extras,
 * by id, in one statement compiled once.
 */
export async function taskListPage(
  ctx: TaskListContext,
  matching: TasksQuery,
  page: PageRequest,
): Promise<TaskListPage> {
  const options = {
    idColumn: 't.id',
    orderable: ORDERABLE,
    defaultOrdering: 'key',
    count: cappedCount(ctx, matching, page),
  } as const;
  if (ctx.dialect === 'postgres' && page.mode === 'offset') {
    const { rows, pagination } = await paginate(listedTasks(matching), page, options);
    const extras = await taskExtrasByIds(
      ctx.db,
      ctx.dialect,
      rows.map((r) => r.id),
    );
    return { tasks: rows.map((row) => ({ row, extras: extras.get(row.id)! })), pagination };
  }
  const { rows: ids, pagination } = await paginate(taskListIds(matching), page, options);
  const rows = await taskRowsInOrder(
    ctx,
    ids.map((row) => row.id),
  );
  return { tasks: withOwnExtras(rows), pagination };
}

/**
 * One offset page in a query's ORDER BY (see orderedPageIds): `matchingIn(ids)` is the matching
 * tasks of those of `projects`. Its count is capped as a list's.
 */
export async function queryOrderedPage(
  ctx: TaskListContext,
  matchingIn: (projectIds: number[]) => TasksQuery,
  projects: Array<{ id: number; key: string }>,
  orderBy: Ordering[],
  page: Extract<PageRequest, { mode: 'offset' }> & { byWords: boolean },
): Promise<TaskListPage> {
  const [ids, { count }] = await Promise.all([
    orderedPageIds(ctx.db, matchingIn, projects, orderBy, ctx.dialect, page).execute(),
    cappedCount(ctx, matchingIn(projects.map((p) => p.id)), page)(),
  ]);
  const tasks = await taskRowsInOrder(
    ctx,
    ids.map((row) => row.id),
  );
  return {
    tasks: withOwnExtras(tasks),
    pagination: { count: Number(count), limit: page.limit, offset: page.offset },
  };
}

/** Task rows with their extras in the order of `ids` (ids without a row are skipped), in one statement compiled once. */
export async function taskRowsInOrder(ctx: TaskListContext, ids: number[]): Promise<TaskRowWithExtras[]> {
  if (ids.length === 0) return [];
  const { dialect } = ctx;
  const read = preparedIn(
    ctx,
    'taskRowsByIds',
    (db: Db, list: number[] | string) => taskRowsWithExtrasByIdList(db, dialect, list),
    1,
  );
  const byId = new Map(
    (await read(ctx.db, dialect === 'postgres' ? ids : JSON.stringify(ids))).map((row) => [row.id, row]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}
