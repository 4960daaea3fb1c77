import type { Db, Dialect } from '../../db/database.ts';
import { paginate } from '../../db/paginate.ts';
import { preparedIn, type PreparedContext } from '../../db/prepared.ts';
import type { PageRequest, Pagination } from '../../http/pagination.ts';
import type { Ordering } from '../query/ast.ts';
import type { Bound } from '../query/bound.ts';
import { orderedPageIds, requiresWords, tasksMatching, whereQuery } from '../query/query.repository.ts';
import {
  countTasksUpTo,
  listedTasks,
  taskExtrasByIds,
  type TaskExtrasRow,
  taskListIds,
  type TaskListFilter,
  type TaskRow,
  taskRowsWithExtrasByIdList,
  type TaskRowWithExtras,
  tasksOfProject,
  type TasksQuery,
  tasksWithKeyAndEpoch,
  subtasksOf,
} from './task.repository.ts';

/** Where a task list is read: the database, its dialect and the statements compiled for it. */
export type TaskListContext = PreparedContext & { readonly dialect: Dialect };

/**
 * Which tasks a list reads, as data: services say which, the page functions here build the query.
 * One project's tasks matching a list's filters, every task of some projects, or a task's direct
 * subtasks; with `bound`, only those matching a bound query.
 */
export type TaskSet = (
  { projectId: number; filter: TaskListFilter } | { projectIds: number[] } | { parentId: number }
) & { bound?: Bound | null };

function matchingTasks(ctx: TaskListContext, set: TaskSet): TasksQuery {
  const tasks =
    'projectId' in set
      ? tasksOfProject(ctx.db, set.projectId, set.filter)
      : 'projectIds' in set
        ? tasksMatching(ctx.db, set.projectIds, null, ctx.dialect)
        : subtasksOf(ctx.db, set.parentId);
  return whereQuery(tasks, set.bound ?? null, ctx.dialect);
}

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
 * One page of `set` in a list's ordering. Two statements whatever the page size, and a
 * capped count (LIST_COUNT_MARGIN). An offset page on PostgreSQL reads its rows, then the extras
 * of exactly those rows. Otherwise the page's ids come first, then its rows with their extras,
 * by id, in one statement compiled once.
 */
export async function taskListPage(ctx: TaskListContext, set: TaskSet, page: PageRequest): Promise<TaskListPage> {
  const matching = matchingTasks(ctx, set);
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
 * One offset page of `set` in a query's ORDER BY, cut in SQL (see orderedPageIds): `set` is the
 * tasks of `projects`, or of the one project in it. Its count is capped as a list's.
 */
export async function queryOrderedPage(
  ctx: TaskListContext,
  set: TaskSet,
  projects: Array<{ id: number; key: string }>,
  orderBy: Ordering[],
  page: Extract<PageRequest, { mode: 'offset' }>,
): Promise<TaskListPage> {
  const matchingIn = (projectIds: number[]) => matchingTasks(ctx, 'projectIds' in set ? { ...set, projectIds } : set);
  const [ids, { count }] = await Promise.all([
    orderedPageIds(ctx.db, matchingIn, projects, orderBy, ctx.dialect, {
      ...page,
      byWords: requiresWords(set.bound ?? null),
    }).execute(),
    cappedCount(ctx, matchingTasks(ctx, set), page)(),
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

/** The tasks found by a key, and the auth epoch read with them (see tasksWithKeyAndEpoch). */
export interface TasksByKey {
  authEpoch: number;
  /** One per workspace at most: keys are unique per workspace, not across them. */
  tasks: TaskRowWithExtras[];
}

/** Every task with this key and the auth epoch, in one statement compiled once: the hottest read (bench/). */
export async function tasksByKey(ctx: TaskListContext, key: string): Promise<TasksByKey> {
  const { dialect } = ctx;
  const read = preparedIn(
    ctx,
    'tasksByKey',
    (db: Db, taskKey: string) => tasksWithKeyAndEpoch(db, dialect, taskKey),
    1,
  );
  // The task's columns come from a left join: null on the row that carries only the epoch.
  const rows = (await read(ctx.db, key)) as Array<{ auth_epoch: number | string } & Partial<TaskRowWithExtras>>;
  return {
    authEpoch: Number(rows[0]?.auth_epoch),
    tasks: rows.filter((row): row is typeof row & TaskRowWithExtras => row.project_id != null),
  };
}
