import { sql } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import { type TaskListFilter, tasksOfProject, type TasksQuery } from './task.repository.ts';

/** The tasks a board shows, as data: a project's tasks matching a list's filters and the board's text. */
export interface BoardTasks {
  projectId: number;
  filter: TaskListFilter;
  text?: string;
}

/** Where a board is read: the database and its dialect. */
export interface BoardContext {
  readonly db: Executor;
  readonly dialect: Dialect;
}

function boardTasks(ctx: BoardContext, tasks: BoardTasks): TasksQuery {
  const matching = tasksOfProject(ctx.db, tasks.projectId, tasks.filter);
  return tasks.text ? withText(matching, ctx.dialect, tasks.text) : matching;
}

/** A project's statuses in board order: the board's columns. */
export function boardStatuses(db: Executor, projectId: number) {
  return db
    .selectFrom('statuses')
    .select(['id', 'name', 'category', 'position'])
    .where('project_id', '=', projectId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** How many of `tasks` are in each status (in `statusId` alone, if given), in one statement over the project/status index. */
export async function countsByStatus(
  ctx: BoardContext,
  tasks: BoardTasks,
  statusId?: number,
): Promise<Map<number, number>> {
  const matching = boardTasks(ctx, tasks);
  const rows = await (statusId === undefined ? matching : matching.where('t.status_id', '=', statusId))
    .select((eb) => ['t.status_id', eb.fn.countAll<number | string>().as('count')])
    .groupBy('t.status_id')
    .execute();
  return new Map(rows.map((row) => [row.status_id, Number(row.count)]));
}

/**
 * One column's next ids: `tasks` in status `statusId` after `afterId`, in id order, one more
 * than `limit` to tell whether more follow. The project/status/id index serves it as a range.
 */
export async function columnIds(
  ctx: BoardContext,
  tasks: BoardTasks,
  statusId: number,
  afterId: number,
  limit: number,
): Promise<number[]> {
  const rows = await boardTasks(ctx, tasks)
    .select('t.id')
    .where('t.status_id', '=', statusId)
    .where('t.id', '>', afterId)
    .orderBy('t.id')
    .limit(limit + 1)
    .execute();
  return rows.map((row) => row.id);
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Tasks whose title holds every word of `text`, or whose key holds it, ignoring case (ILIKE on
 * PostgreSQL; LIKE on SQLite, which folds ASCII letters only).
 */
export function withText(matching: TasksQuery, dialect: Dialect, text: string): TasksQuery {
  const words = text.split(/\s+/).filter(Boolean);
  if (!words.length) return matching;
  const like = dialect === 'postgres' ? sql.raw('ILIKE') : sql.raw('LIKE');
  const contains = (column: string, part: string) =>
    sql<boolean>`${sql.ref(column)} ${like} ${`%${escapeLike(part)}%`} ESCAPE '\\'`;
  return matching.where((eb) =>
    eb.or([eb.and(words.map((word) => contains('t.title', word))), contains('t.key', text.trim())]),
  );
}
