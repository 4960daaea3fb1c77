import type { AppContext } from '../../context.ts';
import { invalid } from '../../http/errors.ts';
import type { PageRequest } from '../../http/pagination.ts';
import { visibleProjectsOf } from '../../policy/index.ts';
import type { Principal } from '../../identity/principal.ts';
import type { Ordering } from '../query/ast.ts';
import { requiresWords, tasksMatching, whereQuery } from '../query/query.repository.ts';
import { bindFor, checkQuery, timeZoneParameter } from '../query/query.service.ts';
import { presentListedTasks } from './task.presenter.ts';
import { queryOrderedPage } from './task-list.repository.ts';
import type { TasksQuery } from './task.repository.ts';
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
  return pageOfQuery(
    ctx,
    principal,
    (projectIds) => tasksMatching(ctx.db, projectIds, null, ctx.dialect),
    projects,
    { q: parameters.q ?? '', tz: parameters.tz },
    page,
  );
}

/**
 * One page of the tasks of `projects` (`matchingIn(ids)`: those of the projects of `ids`)
 * narrowed by the query `q`: in the query's order (or newest first), or by the list's
 * `ordering` when the query has no ORDER BY. Cursor pages walk the ids, as every list does.
 */
export async function pageOfQuery(
  ctx: AppContext,
  principal: Principal,
  matchingIn: (projectIds: number[]) => TasksQuery,
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
  const narrowedIn = (projectIds: number[]) => whereQuery(matchingIn(projectIds), bound, ctx.dialect);
  if (page.mode === 'cursor' || (parameters.ordering && !query.orderBy.length))
    return pageOfTasks(ctx, narrowedIn(projects.map((p) => p.id)), page);
  const { tasks, pagination } = await queryOrderedPage(
    ctx,
    narrowedIn,
    projects,
    query.orderBy.length ? query.orderBy : DEFAULT_ORDER,
    { ...page, byWords: requiresWords(bound) },
  );
  return { data: presentListedTasks(tasks), pagination };
}
