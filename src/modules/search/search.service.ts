import type { SelectQueryBuilder } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { paginate } from '../../db/paginate.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import { invalid } from '../../http/errors.ts';
import { encodeCursor, type PageRequest, type Pagination } from '../../http/pagination.ts';
import type { Principal } from '../auth/principal.ts';
import { visibleProjectsOf } from '../../policy/index.ts';
import { presentTaskRow } from '../tasks/task.presenter.ts';
import { taskRowsInOrder } from '../tasks/task-read.service.ts';
import { fts5Query, searchTerms, tsQuery } from './search-query.ts';
import * as repo from './search.repository.ts';

export interface SearchParams {
  q: string;
  project?: string;
  status?: string;
  assignee?: number;
}

const DEFAULT_ORDERING = '-relevance';

/**
 * Offset pages reach the first 1,000 matches in the requested order, and `pagination.count`
 * counts those (docs/api/search.md): counting every match of a common word read each match's row,
 * most of a search's time at 100k tasks (bench/RESULTS.md), for pages nobody opens.
 */
export const SEARCH_REACH = 1000;
const ORDERABLE = { relevance: 'relevance', created_at: 't.created_at', updated_at: 't.updated_at', key: 't.number' };

/**
 * What a search asks of a full-text index, the same on both engines: how many tasks match (in
 * every tier, or in titles), a slice of one tier newest first, and for other orderings every
 * match with its relevance (a query selecting `id` and `relevance`, tasks aliased `t`).
 */
interface MatchIndex {
  /** How many match, counted up to SEARCH_REACH. */
  count(tier: 'all' | 'titled'): Promise<number>;
  slice(tier: 'titled' | 'described', offset: number, limit: number): Promise<Array<{ id: number }>>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- paginate takes any table set
  ranked(): SelectQueryBuilder<any, any, { id: number; relevance: number }>;
  idColumn: string;
}

/**
 * Full-text search over titles and descriptions of tasks the caller can see. Relevance has two
 * tiers: tasks whose title holds every word, then tasks matching only through their
 * description; newest first within a tier. A tier is an index lookup, where a scoring function
 * (bm25, ts_rank) reads every match: a common word matches a tenth of all tasks, and scoring
 * them was most of the cost of a search at 100k tasks (bench/RESULTS.md). Task rows are read
 * for the page only.
 */
export async function searchTasks(ctx: AppContext, principal: Principal, params: SearchParams, page: PageRequest) {
  const terms = searchTerms(params.q);
  if (terms.length === 0) throw invalid({ q: 'must contain at least one word' });
  const find = async (db: Executor) => {
    const projects = await visibleProjectsOf(db, principal);
    const projectIds = params.project
      ? [projects.byKey.get(params.project)?.id].filter((id) => id !== undefined)
      : [...projects.byId.keys()];
    if (projectIds.length === 0) return { ids: [], pagination: emptyPagination(page) };
    const index =
      ctx.dialect === 'postgres'
        ? postgresIndex(db, terms, { ...params, projectIds })
        : await sqliteIndex(db, terms, params, projectIds);
    return matchIds(index, page);
  };
  // SQLite computes its visibility filter from the projects in the database (see sqliteIndex).
  const { ids, pagination } =
    ctx.dialect === 'sqlite' ? await inTransaction(ctx, (tx) => find(tx.db)) : await find(ctx.db);
  // The rows are read after the matches: a task moved meanwhile to a project the caller cannot
  // see is left out rather than shown.
  const visible = await visibleProjectsOf(ctx.db, principal);
  const rows = (await taskRowsInOrder(ctx, ids)).filter((row) => visible.byId.has(row.project_id));
  return { data: rows.map((row) => presentTaskRow(row, row)), pagination };
}

function emptyPagination(page: PageRequest): Pagination {
  return page.mode === 'cursor'
    ? { limit: page.limit, next_cursor: encodeCursor(page.afterId), has_more: false }
    : { count: 0, limit: page.limit, offset: page.offset };
}

/** The ids of one page of matches, and its pagination. */
async function matchIds(index: MatchIndex, page: PageRequest): Promise<{ ids: number[]; pagination: Pagination }> {
  if (page.mode === 'cursor') {
    const { rows, pagination } = await paginate(index.ranked(), page, {
      idColumn: index.idColumn,
      orderable: ORDERABLE,
      defaultOrdering: DEFAULT_ORDERING,
    });
    return { ids: rows.map((r) => r.id), pagination };
  }
  // The rows of this page that lie within reach.
  const limit = Math.max(0, Math.min(page.limit, SEARCH_REACH - page.offset));
  const pagination = async () => ({ count: await index.count('all'), limit: page.limit, offset: page.offset });
  if ((page.ordering ?? DEFAULT_ORDERING) === DEFAULT_ORDERING) {
    // Best matches first, the common case: the page is cut from the two tiers, newest first in
    // each. The size of the title tier is needed only when the page starts past its end, so
    // below SEARCH_REACH, where its capped count is exact.
    const slice = (tier: 'titled' | 'described', offset: number, length: number) =>
      length <= 0 ? Promise.resolve([]) : index.slice(tier, offset, length);
    const [counted, fromTitles] = await Promise.all([pagination(), slice('titled', page.offset, limit)]);
    let fromDescriptions: Array<{ id: number }> = [];
    if (limit > 0 && fromTitles.length < limit) {
      const inTitle =
        fromTitles.length > 0 || page.offset === 0 ? page.offset + fromTitles.length : await index.count('titled');
      fromDescriptions = await slice('described', Math.max(0, page.offset - inTitle), limit - fromTitles.length);
    }
    return { ids: [...fromTitles, ...fromDescriptions].map((r) => r.id), pagination: counted };
  }
  if (limit === 0) return { ids: [], pagination: await pagination() };
  const { rows, pagination: counted } = await paginate(
    index.ranked(),
    { ...page, limit },
    {
      idColumn: index.idColumn,
      orderable: ORDERABLE,
      defaultOrdering: DEFAULT_ORDERING,
      count: async () => ({ count: await index.count('all') }),
    },
  );
  return { ids: rows.map((r) => r.id), pagination: { ...counted, limit: page.limit } };
}

function postgresIndex(db: Executor, terms: string[], scope: repo.PostgresScope): MatchIndex {
  const query = tsQuery(terms);
  return {
    count: async (tier) => Number((await repo.countPostgresMatches(db, query, scope, tier, SEARCH_REACH)).count),
    slice: (tier, offset, limit) => repo.postgresMatchSlice(db, query, scope, tier, offset, limit),
    ranked: () => repo.rankedPostgresMatches(db, query, scope),
    idColumn: 't.id',
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
  filter: repo.SearchFilter,
  projectIds: number[],
): Promise<MatchIndex> {
  const visible = new Set(projectIds);
  const hidden = (await repo.allProjectIds(db)).filter((id) => !visible.has(id));
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
    count: async (tier) => Number((await repo.countFtsMatches(db, expressions[tier], filter, SEARCH_REACH)).count),
    slice: (tier, offset, limit) =>
      repo.ftsMatchSlice(db, tier === 'titled' ? expressions.titled : described, filter, offset, limit),
    ranked: () => repo.rankedFtsMatches(db, expressions.all, expressions.titled, filter),
    idColumn: 'fts.rowid',
  };
}
