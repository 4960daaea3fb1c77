import { type SelectQueryBuilder, sql } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import { paginate } from '../../db/paginate.ts';
import type { PageRequest, Pagination } from '../../http/pagination.ts';
import { fts5Query, tsQuery } from './search-query.ts';

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
 * PostgreSQL: tasks of `scope` matching a to_tsquery expression, read through a text index. The
 * title has a vector and an index of its own (migration 0015), so "the title holds every word"
 * is answered by an index without reading rows back to recheck them; projects are one array
 * parameter, so the statement text stays the same whatever the caller sees.
 */
function postgresMatching(db: Executor, query: string, scope: PostgresScope, vector: 'search_vector' | 'title_vector') {
  return scoped(db, scope).where(sql<boolean>`${sql.ref(`t.${vector}`)} @@ to_tsquery('english', ${query})`);
}

/** PostgreSQL: tasks of `scope`, with its filters on task columns. */
function scoped(db: Executor, scope: PostgresScope) {
  let tasks = db.selectFrom('tasks as t').where(sql<boolean>`t.project_id = any(${scope.projectIds})`);
  const status = scope.status;
  if (status !== undefined) {
    tasks = tasks.where('t.status_id', 'in', (eb) =>
      eb
        .selectFrom('statuses')
        .select('id')
        .where('name', '=', status)
        .where(sql<boolean>`project_id = any(${scope.projectIds})`),
    );
  }
  if (scope.assignee !== undefined) tasks = tasks.where('t.assignee_id', '=', scope.assignee);
  return tasks;
}

/** What a gathering statement answers: how many match (up to its cap), and every match's id when fewer. */
export interface Gathered {
  count: number;
  /** The ids of every match whose title holds every word, when fewer than the cap match. */
  titled: number[] | null;
  described: number[] | null;
}

/**
 * PostgreSQL: the matches of `scope` in `vector`, gathered through its text index: how many, up
 * to `cap`, and when fewer every id by tier. The statement has no ORDER BY, so the planner has
 * no reason to walk the primary key in order instead of reading the index (at 500k tasks it did,
 * for a rare word under `ORDER BY id DESC LIMIT 20`, and read every row). It reads at most `cap`
 * rows, whatever the size of the table.
 */
export async function gatherPostgresMatches(
  db: Executor,
  query: string,
  scope: PostgresScope,
  vector: 'search_vector' | 'title_vector',
  cap: number,
): Promise<Gathered> {
  const row = await gatherStatement(db, query, scope, vector, cap).executeTakeFirstOrThrow();
  const desc = (ids: number[] | null) => (ids ? ids.map(Number).sort((a, b) => b - a) : null);
  return { count: Number(row.count), titled: desc(row.titled), described: desc(row.described) };
}

/** The statement of gatherPostgresMatches, for bench:growth and the plan test to EXPLAIN. */
export function gatherStatement(
  db: Executor,
  query: string,
  scope: PostgresScope,
  vector: 'search_vector' | 'title_vector',
  cap: number,
) {
  const under = sql<boolean>`count(*) < ${cap}`;
  return db
    .selectFrom(
      postgresMatching(db, query, scope, vector)
        .select(['t.id', sql<boolean>`t.title_vector @@ to_tsquery('english', ${query})`.as('titled')])
        .limit(cap)
        .as('m'),
    )
    .select([
      sql<string>`count(*)`.as('count'),
      sql<number[] | null>`case when ${under} then coalesce(array_agg(m.id) filter (where m.titled), '{}') end`.as(
        'titled',
      ),
      sql<number[] | null>`case when ${under} then coalesce(array_agg(m.id) filter (where not m.titled), '{}') end`.as(
        'described',
      ),
    ]);
}

/**
 * PostgreSQL: a slice of the matches newest first, for a word matching at least the gathering
 * cap of tasks, walking tasks newest first and testing each one's vector. The test is wrapped in
 * `coalesce` so that no text index can answer it: the planner cannot swap the walk for a read of
 * every match, and the walk is short because the matches are many (it reads about
 * (offset + limit) × tasks ÷ matches rows). `exclude`: the title tier, as the ids gathered or
 * (`titled`) tested row by row.
 */
export function walkPostgresMatches(
  db: Executor,
  query: string,
  scope: PostgresScope,
  vector: 'search_vector' | 'title_vector',
  exclude: number[] | 'titled',
  offset: number,
  limit: number,
): Promise<Array<{ id: number }>> {
  const test = (column: string) => sql<boolean>`coalesce(${sql.ref(column)} @@ to_tsquery('english', ${query}), false)`;
  let walk = scoped(db, scope).where(test(`t.${vector}`));
  if (exclude === 'titled') walk = walk.where(sql<boolean>`not ${test('t.title_vector')}`);
  else if (exclude.length > 0) walk = walk.where(sql<boolean>`not (t.id = any(${exclude}))`);
  return walk.select('t.id').orderBy('t.id', 'desc').limit(limit).offset(offset).execute();
}

/**
 * PostgreSQL: the first `wanted` matches of a tier among the newest `window` tasks of `scope`,
 * newest first: reads at most `window` rows, the newest and so the likeliest to be cached, and
 * no text index, so its cost is the same on any statistics and any number of tasks. A word that
 * matches at least the gathering cap of tasks fills a page from there unless its tier is sparse.
 */
export function windowPostgresMatches(
  db: Executor,
  query: string,
  scope: PostgresScope,
  tier: 'titled' | 'described',
  window: number,
  wanted: number,
): Promise<Array<{ id: number }>> {
  const test = (column: string) => sql<boolean>`coalesce(${sql.ref(column)} @@ to_tsquery('english', ${query}), false)`;
  // The description's vector is tested only for that tier: it is the larger one, often
  // compressed, and testing it costs ten times the title's.
  const hit =
    tier === 'titled'
      ? test('t.title_vector')
      : sql<boolean>`${test('t.search_vector')} and not ${test('t.title_vector')}`;
  const newest = scoped(db, scope)
    .select(['t.id', hit.as('hit')])
    .orderBy('t.id', 'desc')
    .limit(window);
  return db
    .selectFrom(newest.as('w'))
    .select('w.id')
    .where(sql<boolean>`w.hit`)
    .orderBy('w.id', 'desc')
    .limit(wanted)
    .execute();
}

/** PostgreSQL: ids of every match with their `relevance` (1: the title matches too), for one page in any ordering. */
export function rankedPostgresMatches(db: Executor, query: string, scope: PostgresScope) {
  return postgresMatching(db, query, scope, 'search_vector').select([
    't.id',
    sql<number>`(t.title_vector @@ to_tsquery('english', ${query}))::int`.as('relevance'),
  ]);
}

/** PostgreSQL: the gathered matches with their `relevance`, for one page in any ordering, read by id. */
export function rankedGatheredMatches(db: Executor, titled: number[], described: number[]) {
  return db
    .selectFrom('tasks as t')
    .where(sql<boolean>`t.id = any(${[...titled, ...described]})`)
    .select(['t.id', sql<number>`(t.id = any(${titled}))::int`.as('relevance')]);
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
  // CROSS JOIN is SQLite's way to fix the join order: the index's matches first, then their
  // rows by primary key, whatever the statistics say (never the tasks of a status, each looked up
  // in the index).
  let filtered = query.crossJoin('tasks as t').whereRef('t.id', '=', sql.ref('fts.rowid'));
  if (filter.status !== undefined)
    filtered = filtered
      .crossJoin('statuses as s')
      .whereRef('s.id', '=', 't.status_id')
      .where('s.name', '=', filter.status);
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
  return ftsSliceStatement(db, expression, filter, offset, limit).execute();
}

/** The statement of ftsMatchSlice, for the plan test to EXPLAIN. */
export function ftsSliceStatement(
  db: Executor,
  expression: string,
  filter: SearchFilter,
  offset: number,
  limit: number,
) {
  return ftsMatching(db, expression, filter, false)
    .select(sql<number>`fts.rowid`.as('id'))
    .orderBy(sql.ref('fts.rowid'), 'desc')
    .limit(limit)
    .offset(offset);
}

/** SQLite: ids of every match with their `relevance` (1: `titled` matches too), for one page in any ordering. */
export function rankedFtsMatches(db: Executor, all: string, titled: string, filter: SearchFilter) {
  return ftsMatching(db, all, filter, true).select([
    sql<number>`fts.rowid`.as('id'),
    sql<number>`fts.rowid in (select rowid from tasks_fts where tasks_fts match ${titled})`.as('relevance'),
  ]);
}

/** What a search page may be ordered by; the default, best matches first, is cut from the tiers instead. */
const ORDERABLE = { relevance: 'relevance', created_at: 't.created_at', updated_at: 't.updated_at', key: 't.number' };
export const DEFAULT_SEARCH_ORDERING = '-relevance';

/**
 * What a search asks of a full-text index, the same on both engines: how many tasks match (in
 * every tier, or in titles), a slice of one tier newest first, and for other orderings one page
 * of every match ranked by the requested ordering.
 */
export interface MatchIndex {
  /** How many match, counted up to the index's cap. */
  count(tier: 'all' | 'titled'): Promise<number>;
  slice(tier: 'titled' | 'described', offset: number, limit: number): Promise<Array<{ id: number }>>;
  /** One page of every match; `count`, when given, counts instead of the page's own query. */
  rankedPage(page: PageRequest, count?: () => Promise<number>): Promise<{ ids: number[]; pagination: Pagination }>;
}

/** The index of the database's engine for `terms`, over the visible `projectIds` (never empty), counting up to `cap`. */
export async function matchIndex(
  db: Executor,
  dialect: Dialect,
  terms: string[],
  filter: SearchFilter,
  projectIds: number[],
  cap: number,
): Promise<MatchIndex> {
  return dialect === 'postgres'
    ? postgresIndex(db, terms, { status: filter.status, assignee: filter.assignee, projectIds }, cap)
    : sqliteIndex(db, terms, filter, projectIds, cap);
}

function rankedPager(
  // Any table set, as paginate takes: the ranked query selects `id` and `relevance`, tasks aliased `t`.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ranked: () => SelectQueryBuilder<any, any, { id: number; relevance: number }>,
  idColumn: string,
): MatchIndex['rankedPage'] {
  return async (page, count) => {
    const { rows, pagination } = await paginate(ranked(), page, {
      idColumn,
      orderable: ORDERABLE,
      defaultOrdering: DEFAULT_SEARCH_ORDERING,
      ...(count && { count: async () => ({ count: await count() }) }),
    });
    return { ids: rows.map((r) => r.id), pagination };
  };
}

/** How many of the newest tasks a common word's page is looked for in first (windowPostgresMatches). */
const WINDOW = 5000;

/**
 * PostgreSQL: every statement reads a text index or walks a bounded way (gatherPostgresMatches,
 * windowPostgresMatches, walkPostgresMatches). A search first gathers its matches up to `cap`:
 * fewer (a rare or absent word) and every page is cut from the ids gathered. As many (a common
 * word) and a tier's page comes from the newest WINDOW tasks when they hold it; only a tier too
 * sparse for that is gathered through the title index (few rows, since it is sparse), and a
 * tier is walked without bound only when that index holds at least `cap` of it.
 */
function postgresIndex(db: Executor, terms: string[], scope: PostgresScope, cap: number): MatchIndex {
  const query = tsQuery(terms);
  const once = <T>(load: () => Promise<T>) => {
    let loaded: Promise<T> | undefined;
    return () => (loaded ??= load());
  };
  const all = once(() => gatherPostgresMatches(db, query, scope, 'search_vector', cap));
  const titles = once(() => gatherPostgresMatches(db, query, scope, 'title_vector', cap));
  const cut = (ids: number[], offset: number, limit: number) => ids.slice(offset, offset + limit).map((id) => ({ id }));
  return {
    count: async (tier) => {
      const gathered = await all();
      if (tier === 'all') return gathered.count;
      return gathered.titled ? gathered.titled.length : (await titles()).count;
    },
    slice: async (tier, offset, limit) => {
      const gathered = await all();
      const ids = tier === 'titled' ? gathered.titled : gathered.described;
      if (ids) return cut(ids, offset, limit);
      const newest = await windowPostgresMatches(db, query, scope, tier, WINDOW, offset + limit);
      if (newest.length === offset + limit) return newest.slice(offset);
      const titled = (await titles()).titled;
      if (tier === 'titled')
        return titled
          ? cut(titled, offset, limit)
          : walkPostgresMatches(db, query, scope, 'title_vector', [], offset, limit);
      return walkPostgresMatches(db, query, scope, 'search_vector', titled ?? 'titled', offset, limit);
    },
    rankedPage: async (page, count) => {
      const { titled, described } = await all();
      const ranked =
        titled && described
          ? () => rankedGatheredMatches(db, titled, described)
          : () => rankedPostgresMatches(db, query, scope);
      return rankedPager(ranked, 't.id')(page, count);
    },
  };
}

/**
 * SQLite: the FTS5 index also holds each task's project id, so which visible tasks match, how
 * many and in which tier is answered by the index alone. FTS5 merges the posting list of every
 * project a filter names, so the filter is written the cheapest way: none when the caller sees
 * every project in the database, the few it cannot see excluded when those are fewer. The
 * caller's transaction makes the projects this is computed from the ones the index is read in.
 */
async function sqliteIndex(
  db: Executor,
  terms: string[],
  filter: SearchFilter,
  projectIds: number[],
  cap: number,
): Promise<MatchIndex> {
  const visible = new Set(projectIds);
  const hidden = (await allProjectIds(db)).filter((id) => !visible.has(id));
  const scope =
    hidden.length === 0
      ? ''
      : hidden.length < projectIds.length
        ? ` NOT project_id : (${hidden.join(' OR ')})`
        : ` AND project_id : (${projectIds.join(' OR ')})`;
  const words = fts5Query(terms);
  const expressions = { all: `{title description} : (${words})${scope}`, titled: `title : (${words})${scope}` };
  const described = `(${expressions.all}) NOT (${expressions.titled})`;
  return {
    count: async (tier) => Number((await countFtsMatches(db, expressions[tier], filter, cap)).count),
    slice: (tier, offset, limit) =>
      ftsMatchSlice(db, tier === 'titled' ? expressions.titled : described, filter, offset, limit),
    rankedPage: rankedPager(() => rankedFtsMatches(db, expressions.all, expressions.titled, filter), 'fts.rowid'),
  };
}
