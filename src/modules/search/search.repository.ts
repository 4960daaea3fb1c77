import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Principal } from '../auth/principal.ts';
import { visibleProjectIds } from '../../policy/visibility.repository.ts';
import { selectTaskRows } from '../tasks/task.repository.ts';

/** Filters of a search beyond its words. */
export interface SearchFilter {
  project?: string;
  status?: string;
  assignee?: number;
}

/**
 * PostgreSQL: visible tasks whose search vector matches `query` (a to_tsquery expression), with
 * `relevance` 1 when `titleQuery` (the same words restricted to titles) matches too, for one page.
 */
export function postgresMatches(db: Executor, principal: Principal, query: string, titleQuery: string, filter: SearchFilter) {
  let matches = selectTaskRows(db)
    .where('t.project_id', 'in', visibleProjectIds(db, principal))
    .where(sql<boolean>`t.search_vector @@ to_tsquery('english', ${query})`)
    // Titles are weighted A in the search vector: a query restricted to A matches titles only.
    .select(sql<number>`(t.search_vector @@ to_tsquery('english', ${titleQuery}))::int`.as('relevance'));
  if (filter.project) matches = matches.where('p.key', '=', filter.project);
  if (filter.status) matches = matches.where('s.name', '=', filter.status);
  if (filter.assignee !== undefined) matches = matches.where('t.assignee_id', '=', filter.assignee);
  return matches;
}

/**
 * SQLite: rows of the full-text index matching an FTS5 `expression`; joined to their tasks when
 * a filter is on task columns (or `withTask`), so such filters apply.
 */
function ftsMatching(db: Executor, expression: string, filter: SearchFilter, withTask: boolean) {
  const query = db.selectFrom(sql<{ rowid: number }>`tasks_fts`.as('fts')).where(sql<boolean>`tasks_fts match ${expression}`);
  if (!withTask && filter.status === undefined && filter.assignee === undefined) return query;
  let filtered = query.innerJoin('tasks as t', (join) => join.onRef('t.id', '=', 'fts.rowid'));
  if (filter.status !== undefined) filtered = filtered.innerJoin('statuses as s', 's.id', 't.status_id').where('s.name', '=', filter.status);
  if (filter.assignee !== undefined) filtered = filtered.where('t.assignee_id', '=', filter.assignee);
  return filtered;
}

/** SQLite: how many tasks match, answered by the index alone unless a filter is on task columns. */
export function countFtsMatches(db: Executor, expression: string, filter: SearchFilter) {
  return ftsMatching(db, expression, filter, false).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
}

/** SQLite: ids of a slice of the matches, newest first. */
export function ftsMatchSlice(db: Executor, expression: string, filter: SearchFilter, offset: number, limit: number): Promise<Array<{ id: number }>> {
  return ftsMatching(db, expression, filter, false).select(sql<number>`fts.rowid`.as('id')).orderBy(sql.ref('fts.rowid'), 'desc').limit(limit).offset(offset).execute();
}

/** SQLite: ids of every match with their `relevance` (1: `titled` matches too), for one page in any ordering. */
export function rankedFtsMatches(db: Executor, all: string, titled: string, filter: SearchFilter) {
  return ftsMatching(db, all, filter, true).select([
    sql<number>`fts.rowid`.as('id'),
    sql<number>`fts.rowid in (select rowid from tasks_fts where tasks_fts match ${titled})`.as('relevance'),
  ]);
}
