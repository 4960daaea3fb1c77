import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/** Filters of a search on task columns (a `project` filter narrows the projects searched instead). */
export interface SearchFilter {
  status?: string;
  assignee?: number;
}

/**
 * The two relevance tiers and their union: `titled` tasks hold every word in their title,
 * `described` ones match only through their description.
 */
export type Tier = 'all' | 'titled' | 'described';

/** PostgreSQL: which tasks a search looks at: `projectIds` (visible, never empty) and the filters on task columns. */
export interface PostgresScope extends SearchFilter {
  projectIds: number[];
}

/**
 * PostgreSQL: tasks of `scope` in `tier` for a to_tsquery expression. The title has a vector
 * and an index of its own (migration 0015), so each tier is answered by an index without
 * reading rows back to recheck them; projects are one array parameter, so the statement text
 * stays the same whatever the caller sees.
 */
function postgresTier(db: Executor, query: string, scope: PostgresScope, tier: Tier) {
  const words = sql`to_tsquery('english', ${query})`;
  let matches = db
    .selectFrom('tasks as t')
    .where(sql<boolean>`t.project_id = any(${scope.projectIds})`)
    .where(tier === 'titled' ? sql<boolean>`t.title_vector @@ ${words}` : sql<boolean>`t.search_vector @@ ${words}`);
  if (tier === 'described') matches = matches.where(sql<boolean>`not (t.title_vector @@ ${words})`);
  const status = scope.status;
  if (status !== undefined) {
    matches = matches.where('t.status_id', 'in', (eb) =>
      eb
        .selectFrom('statuses')
        .select('id')
        .where('name', '=', status)
        .where(sql<boolean>`project_id = any(${scope.projectIds})`),
    );
  }
  if (scope.assignee !== undefined) matches = matches.where('t.assignee_id', '=', scope.assignee);
  return matches;
}

/** PostgreSQL: how many tasks of `scope` match, counted up to `cap` (each one counted reads its row). */
export function countPostgresMatches(db: Executor, query: string, scope: PostgresScope, tier: Tier, cap: number) {
  return db
    .selectFrom(postgresTier(db, query, scope, tier).select('t.id').limit(cap).as('m'))
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
}

/** PostgreSQL: ids of a slice of a tier, newest first. */
export function postgresMatchSlice(
  db: Executor,
  query: string,
  scope: PostgresScope,
  tier: Tier,
  offset: number,
  limit: number,
): Promise<Array<{ id: number }>> {
  return postgresTier(db, query, scope, tier)
    .select('t.id')
    .orderBy('t.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** PostgreSQL: ids of every match with their `relevance` (1: the title matches too), for one page in any ordering. */
export function rankedPostgresMatches(db: Executor, query: string, scope: PostgresScope) {
  return postgresTier(db, query, scope, 'all').select([
    't.id',
    sql<number>`(t.title_vector @@ to_tsquery('english', ${query}))::int`.as('relevance'),
  ]);
}

/** SQLite: every project's id, whoever owns it: what a search's visibility filter is the complement of. */
export async function allProjectIds(db: Executor): Promise<number[]> {
  const rows = await db.selectFrom('projects').select('id').execute();
  return rows.map((r) => r.id);
}

/**
 * SQLite: rows of the full-text index matching an FTS5 `expression`; joined to their tasks when
 * a filter is on task columns (or `withTask`), so such filters apply.
 */
function ftsMatching(db: Executor, expression: string, filter: SearchFilter, withTask: boolean) {
  const query = db
    .selectFrom(sql<{ rowid: number }>`tasks_fts`.as('fts'))
    .where(sql<boolean>`tasks_fts match ${expression}`);
  if (!withTask && filter.status === undefined && filter.assignee === undefined) return query;
  let filtered = query.innerJoin('tasks as t', (join) => join.onRef('t.id', '=', 'fts.rowid'));
  if (filter.status !== undefined)
    filtered = filtered.innerJoin('statuses as s', 's.id', 't.status_id').where('s.name', '=', filter.status);
  if (filter.assignee !== undefined) filtered = filtered.where('t.assignee_id', '=', filter.assignee);
  return filtered;
}

/** SQLite: how many tasks match, up to `cap`, answered by the index alone unless a filter is on task columns. */
export function countFtsMatches(db: Executor, expression: string, filter: SearchFilter, cap: number) {
  return db
    .selectFrom(
      ftsMatching(db, expression, filter, false)
        .select(sql<number>`fts.rowid`.as('id'))
        .limit(cap)
        .as('m'),
    )
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
}

/** SQLite: ids of a slice of the matches, newest first. */
export function ftsMatchSlice(
  db: Executor,
  expression: string,
  filter: SearchFilter,
  offset: number,
  limit: number,
): Promise<Array<{ id: number }>> {
  return ftsMatching(db, expression, filter, false)
    .select(sql<number>`fts.rowid`.as('id'))
    .orderBy(sql.ref('fts.rowid'), 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** SQLite: ids of every match with their `relevance` (1: `titled` matches too), for one page in any ordering. */
export function rankedFtsMatches(db: Executor, all: string, titled: string, filter: SearchFilter) {
  return ftsMatching(db, all, filter, true).select([
    sql<number>`fts.rowid`.as('id'),
    sql<number>`fts.rowid in (select rowid from tasks_fts where tasks_fts match ${titled})`.as('relevance'),
  ]);
}
