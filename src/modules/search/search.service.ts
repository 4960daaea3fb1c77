import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { invalid } from '../../http/errors.ts';
import { encodeCursor, type PageRequest, type Pagination } from '../../http/pagination.ts';
import { paginate } from '../../db/paginate.ts';
import type { Principal } from '../auth/principal.ts';
import { visibleProjectIds, visibleProjectsOf } from '../../policy/index.ts';
import { presentTasks } from '../tasks/task.presenter.ts';
import { selectTaskRows, type TaskRow } from '../tasks/task.repository.ts';
import { fts5Query, searchTerms, tsQuery } from './search-query.ts';

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
  let query = selectTaskRows(ctx.db)
    .where('t.project_id', 'in', visibleProjectIds(ctx.db, principal))
    .where(sql<boolean>`t.search_vector @@ to_tsquery('english', ${tsQuery(terms)})`)
    // Titles are weighted A in the search vector: a query restricted to A matches titles only.
    .select(sql<number>`(t.search_vector @@ to_tsquery('english', ${tsQuery(terms, 'A')}))::int`.as('relevance'));
  if (params.project) query = query.where('p.key', '=', params.project);
  if (params.status) query = query.where('s.name', '=', params.status);
  if (params.assignee !== undefined) query = query.where('t.assignee_id', '=', params.assignee);
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
  const needsTask = params.status !== undefined || params.assignee !== undefined;

  const matching = (expression: string, withTask: boolean) => {
    const query = db.selectFrom(sql<{ rowid: number }>`tasks_fts`.as('fts')).where(sql<boolean>`tasks_fts match ${expression}`);
    if (!withTask) return query;
    let filtered = query.innerJoin('tasks as t', (join) => join.onRef('t.id', '=', 'fts.rowid'));
    if (params.status !== undefined) filtered = filtered.innerJoin('statuses as s', 's.id', 't.status_id').where('s.name', '=', params.status);
    if (params.assignee !== undefined) filtered = filtered.where('t.assignee_id', '=', params.assignee);
    return filtered;
  };
  const count = (expression: string) => matching(expression, needsTask).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();

  if (page.mode === 'offset' && (page.ordering ?? DEFAULT_ORDERING) === DEFAULT_ORDERING) {
    // Best matches first, the common case: the page is cut from the two tiers, newest first in
    // each. The size of the title tier is needed only when the page starts past its end.
    const slice = (expression: string, offset: number, limit: number) =>
      limit <= 0 ? Promise.resolve([]) : matching(expression, needsTask).select(sql<number>`fts.rowid`.as('id')).orderBy(sql.ref('fts.rowid'), 'desc').limit(limit).offset(offset).execute();
    const [total, fromTitles] = await Promise.all([count(all), slice(titled, page.offset, page.limit)]);
    let fromDescriptions: Array<{ id: number }> = [];
    if (fromTitles.length < page.limit) {
      const inTitle = fromTitles.length > 0 || page.offset === 0 ? page.offset + fromTitles.length : Number((await count(titled)).count);
      fromDescriptions = await slice(`(${all}) NOT (${titled})`, Math.max(0, page.offset - inTitle), page.limit - fromTitles.length);
    }
    return { rows: await taskRowsInOrder(db, [...fromTitles, ...fromDescriptions]), pagination: { count: Number(total.count), limit: page.limit, offset: page.offset } };
  }
  const query = matching(all, true).select([
    sql<number>`fts.rowid`.as('id'),
    sql<number>`fts.rowid in (select rowid from tasks_fts where tasks_fts match ${titled})`.as('relevance'),
  ]);
  const { rows: ids, pagination } = await paginate(query, page, { idColumn: 'fts.rowid', orderable: ORDERABLE, defaultOrdering: DEFAULT_ORDERING, count: () => count(all) });
  return { rows: await taskRowsInOrder(db, ids), pagination };
}

async function taskRowsInOrder(db: Executor, ids: Array<{ id: number }>): Promise<TaskRow[]> {
  if (ids.length === 0) return [];
  const byId = new Map((await selectTaskRows(db).where('t.id', 'in', ids.map((r) => r.id)).execute()).map((row) => [row.id, row]));
  return ids.map((r) => byId.get(r.id)!);
}
