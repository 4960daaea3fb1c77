import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { invalid } from '../../http/errors.ts';
import { type PageRequest, paginate } from '../../http/pagination.ts';
import type { Principal } from '../auth/principal.ts';
import { visibleProjectIds } from '../projects/visibility.ts';
import { presentTasks } from '../tasks/task.presenter.ts';
import { selectTaskRows } from '../tasks/task.repository.ts';
import { fts5Query, searchTerms, tsQuery } from './search-query.ts';

export interface SearchParams {
  q: string;
  project?: string;
  status?: string;
  assignee?: number;
}

const ORDERABLE = { relevance: 'score', created_at: 't.created_at', updated_at: 't.updated_at', key: 't.number' };

/**
 * Full-text search over titles and descriptions of tasks the caller can see, best match first.
 * `score` is higher for better matches on both engines (SQLite's bm25 is negated).
 */
export async function searchTasks(ctx: AppContext, principal: Principal, params: SearchParams, page: PageRequest) {
  const terms = searchTerms(params.q);
  if (terms.length === 0) throw invalid({ q: 'must contain at least one word' });

  let query;
  let count: (() => Promise<{ count: number }>) | undefined;
  if (ctx.dialect === 'postgres') {
    const tsquery = tsQuery(terms);
    query = selectTaskRows(ctx.db)
      .where('t.project_id', 'in', visibleProjectIds(ctx.db, principal))
      .where(sql<boolean>`t.search_vector @@ to_tsquery('english', ${tsquery})`)
      .select(sql<number>`ts_rank(t.search_vector, to_tsquery('english', ${tsquery}))`.as('score'));
  } else {
    // Materialized, so the FTS query runs once; inlined, SQLite re-runs it for every task row.
    const matches = ctx.db.with(
      (cte) => cte('f').materialized(),
      () => sql<{ rowid: number; score: number }>`(select rowid, -bm25(tasks_fts, 10.0, 1.0) as score from tasks_fts where tasks_fts match ${fts5Query(terms)})`,
    );
    query = selectTaskRows(matches as unknown as Executor)
      .innerJoin(sql<{ rowid: number; score: number }>`f`.as('f'), (join) => join.onRef('f.rowid', '=', 't.id'))
      .where('t.project_id', 'in', visibleProjectIds(ctx.db, principal))
      .select('f.score');
    // The total needs no bm25 score and no materialized CTE: at 100k tasks this halves the cost
    // of a page (bench/). Same rows: the other joins of the page query are on required columns.
    const match = fts5Query(terms);
    count = () => {
      let counted = ctx.db
        .selectFrom('tasks as t')
        .innerJoin(sql<{ rowid: number }>`tasks_fts`.as('fts'), (join) => join.onRef('fts.rowid', '=', 't.id'))
        .innerJoin('projects as p', 'p.id', 't.project_id')
        .innerJoin('statuses as s', 's.id', 't.status_id')
        .where(sql<boolean>`tasks_fts match ${match}`)
        .where('t.project_id', 'in', visibleProjectIds(ctx.db, principal));
      if (params.project) counted = counted.where('p.key', '=', params.project);
      if (params.status) counted = counted.where('s.name', '=', params.status);
      if (params.assignee !== undefined) counted = counted.where('t.assignee_id', '=', params.assignee);
      return counted.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    };
  }
  if (params.project) query = query.where('p.key', '=', params.project);
  if (params.status) query = query.where('s.name', '=', params.status);
  if (params.assignee !== undefined) query = query.where('t.assignee_id', '=', params.assignee);

  const { rows, pagination } = await paginate(query, page, { idColumn: 't.id', orderable: ORDERABLE, defaultOrdering: '-relevance', count });
  return { data: await presentTasks(ctx.db, rows), pagination };
}
