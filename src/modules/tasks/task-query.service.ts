import type { AppContext } from '../../context.ts';
import { invalid } from '../../http/errors.ts';
import type { PageRequest } from '../../http/pagination.ts';
import { visibleProjectsOf } from '../../policy/index.ts';
import type { Principal } from '../../identity/principal.ts';
import type { Ordering } from '../query/ast.ts';
import { bindFor, checkQuery, timeZoneParameter } from '../query/query.service.ts';
import { presentListedTasks } from './task.presenter.ts';
import { queryOrderedPage, type TaskSet } from './task-list.repository.ts';
import { pageOfTasks } from './task-read.service.ts';

/** A query's ORDER BY when it has none: newest first. */
const DEFAULT_ORDER: Ordering[] = [{ field: 'created', direction: 'desc' }];

export interface QueryParameters {
  q: string;
  tz?: string;
  /** The list's own `ordering` parameter, which a query's ORDER BY must not contradict. */
  ordering?: string;
}

/** Tasks across every project the caller sees (a restricted token: its projects), matching `q`. */
export async function listTasksByQuery(
  ctx: AppContext,
  principal: Principal,
  parameters: { q?: string; tz?: string },
  page: PageRequest,
) {
  const visible = await visibleProjectsOf(ctx.db, principal);
  const projects = [...visible.byId.values()].map((p) => ({ id: p.id, key: p.key }));
  const matching: TaskSet = { projectIds: projects.map((p) => p.id) };
  return pageOfQuery(ctx, principal, matching, projects, { q: parameters.q ?? '', tz: parameters.tz }, page);
}

/**
 * One page of `set` narrowed by the query `q` over `projects`: in the query's order (or
 * newest first), or by the list's `ordering` when the query has no ORDER BY. Cursor pages walk
 * the ids, as every list does.
 */
export async function pageOfQuery(
  ctx: AppContext,
  principal: Principal,
  set: TaskSet,
  projects: Array<{ id: number; key: string }>,
  parameters: QueryParameters,
  page: PageRequest,
) {
  const query = checkQuery(parameters.q);
  const timeZone = timeZoneParameter(parameters.tz);
  if (query.orderBy.length && parameters.ordering)
    throw invalid({ ordering: 'the query has its own ORDER BY; send one or the other' });
  const bound = await bindFor(ctx, ctx.db, query, {
    accountId: principal.userId,
    organizationId: principal.organizationId,
    projects,
    timeZone,
  });
  const narrowed: TaskSet = { ...set, bound };
  if (page.mode === 'cursor' || (parameters.ordering && !query.orderBy.length)) return pageOfTasks(ctx, narrowed, page);
  const { tasks, pagination } = await queryOrderedPage(
    ctx,
    narrowed,
    projects,
    query.orderBy.length ? query.orderBy : DEFAULT_ORDER,
    page,
  );
  return { data: presentListedTasks(tasks), pagination };
}
