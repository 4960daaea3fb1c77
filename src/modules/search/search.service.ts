import type { AppContext } from '../../context.ts';
import { invalid } from '../../http/errors.ts';
import { encodeCursor, type PageRequest, type Pagination } from '../../http/pagination.ts';
import { paginate } from '../../db/paginate.ts';
import type { Principal } from '../auth/principal.ts';
import { visibleProjectsOf } from '../../policy/index.ts';
import { presentTasks } from '../tasks/task.presenter.ts';
import { type TaskRow, taskRowsInOrder } from '../tasks/task.repository.ts';
import { fts5Query, searchTerms, tsQuery } from './search-query.ts';
import * as repo from './search.repository.ts';

export interface SearchParams {
  q: string;
  project?: string;
  status?: string;
  assignee?: number;
}

const DEFAULT_ORDERING = '-relevance';
const ORDERABLE = { relevance: 'relevance', created_at: 't.created_at', updated_at: 't.updated_at', key: 't.number' };

/**
 * Full-text search over titles and descriptions of tasks the caller can see. Relevance has two
 * tiers, the same on both engines: tasks whose title holds every word, then tasks matching only
 * through their description; newest first within a tier. A tier is an index lookup, where a
 * scoring function (bm25, ts_rank) reads every match: a common word matches a tenth of all
 * tasks, and scoring them was most of the cost of a search at 100k tasks (bench/RESULTS.md).
 */
export async function searchTasks(ctx: AppContext, principal: Principal, params: SearchParams, page: PageRequest) {
  const terms = searchTerms(params.q);
  if (terms.length === 0) throw invalid({ q: 'must contain at least one word' });
  const { rows, pagination } = ctx.dialect === 'postgres' ? await searchPostgres(ctx, principal, params, terms, page) : await searchSqlite(ctx, principal, params, terms, page);
  return { data: await presentTasks(ctx.db, ctx.dialect, rows), pagination };
}

function searchPostgres(ctx: AppContext, principal: Principal, params: SearchParams, terms: string[], page: PageRequest) {
  const query = repo.postgresMatches(ctx.db, principal, tsQuery(terms), tsQuery(terms, 'A'), params);
  return paginate(query, page, { idColumn: 't.id', orderable: ORDERABLE, defaultOrdering: DEFAULT_ORDERING });
}

/**
 * SQLite: the full-text index also holds each task's project id, so which visible tasks match,
 * how many and in which tier is answered by the index alone; task rows are read for the page only
 * (and for filters and orderings on task columns).
 */
async function searchSqlite(ctx: AppContext, principal: Principal, params: SearchParams, terms: string[], page: PageRequest): Promise<{ rows: TaskRow[]; pagination: Pagination }> {
  const db = ctx.db;
  const projects = await visibleProjectsOf(db, principal);
  const projectIds = params.project ? [projects.byKey.get(params.project)?.id].filter((id) => id !== undefined) : [...projects.byId.keys()];
  if (projectIds.length === 0) {
    const pagination = page.mode === 'cursor' ? { limit: page.limit, next_cursor: encodeCursor(page.afterId), has_more: false } : { count: 0, limit: page.limit, offset: page.offset };
    return { rows: [], pagination };
  }
  const words = fts5Query(terms);
  const visible = `project_id : (${projectIds.join(' OR ')})`;
  const all = `{title description} : (${words}) AND ${visible}`;
  const titled = `title : (${words}) AND ${visible}`;
  const count = (expression: string) => repo.countFtsMatches(db, expression, params);

  if (page.mode === 'offset' && (page.ordering ?? DEFAULT_ORDERING) === DEFAULT_ORDERING) {
    // Best matches first, the common case: the page is cut from the two tiers, newest first in
    // each. The size of the title tier is needed only when the page starts past its end.
    const slice = (expression: string, offset: number, limit: number) =>
      limit <= 0 ? Promise.resolve([]) : repo.ftsMatchSlice(db, expression, params, offset, limit);
    const [total, fromTitles] = await Promise.all([count(all), slice(titled, page.offset, page.limit)]);
    let fromDescriptions: Array<{ id: number }> = [];
    if (fromTitles.length < page.limit) {
      const inTitle = fromTitles.length > 0 || page.offset === 0 ? page.offset + fromTitles.length : Number((await count(titled)).count);
      fromDescriptions = await slice(`(${all}) NOT (${titled})`, Math.max(0, page.offset - inTitle), page.limit - fromTitles.length);
    }
    const rows = await taskRowsInOrder(db, [...fromTitles, ...fromDescriptions].map((r) => r.id));
    return { rows, pagination: { count: Number(total.count), limit: page.limit, offset: page.offset } };
  }
  const ranked = repo.rankedFtsMatches(db, all, titled, params);
  const { rows: ids, pagination } = await paginate(ranked, page, { idColumn: 'fts.rowid', orderable: ORDERABLE, defaultOrdering: DEFAULT_ORDERING, count: () => count(all) });
  return { rows: await taskRowsInOrder(db, ids.map((r) => r.id)), pagination };
}
