import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import { invalid } from '../../http/errors.ts';
import { encodeCursor, type PageRequest, type Pagination } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { visibleProjectsOf } from '../../policy/index.ts';
import { presentTaskRow } from '../tasks/task.presenter.ts';
import { taskRowsInOrder } from '../tasks/task-list.repository.ts';
import { searchTerms } from './search-query.ts';
import * as repo from './search.repository.ts';

export interface SearchParams {
  q: string;
  project?: string;
  status?: string;
  assignee?: number;
}

/**
 * Offset pages reach the first 1,000 matches in the requested order, and `pagination.count`
 * counts those (docs/api/search.md): counting every match of a common word read each match's row,
 * most of a search's time at 100k tasks (bench/RESULTS.md), for pages nobody opens.
 */
export const SEARCH_REACH = 1000;

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
    return matchIds(await repo.matchIndex(db, ctx.dialect, terms, params, projectIds, SEARCH_REACH), page);
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
async function matchIds(index: repo.MatchIndex, page: PageRequest): Promise<{ ids: number[]; pagination: Pagination }> {
  if (page.mode === 'cursor') return index.rankedPage(page);
  // The rows of this page that lie within reach.
  const limit = Math.max(0, Math.min(page.limit, SEARCH_REACH - page.offset));
  const pagination = async () => ({ count: await index.count('all'), limit: page.limit, offset: page.offset });
  if ((page.ordering ?? repo.DEFAULT_SEARCH_ORDERING) === repo.DEFAULT_SEARCH_ORDERING) {
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
  const { ids, pagination: counted } = await index.rankedPage({ ...page, limit }, () => index.count('all'));
  return { ids, pagination: { ...counted, limit: page.limit } };
}
