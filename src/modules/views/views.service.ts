import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { foundOr404, notFound } from '../../http/errors.ts';
import type { PageRequest } from '../../http/pagination.ts';
import {
  authorizeViewChange,
  authorizeViewShape,
  type ProjectRef,
  readableProjectByKey,
  visibleProjectsOf,
} from '../../policy/index.ts';
import type { Principal } from '../../identity/principal.ts';
import { bindFor, checkQuery } from '../query/query.service.ts';
import { listTasksByQuery, pageOfQuery } from '../tasks/task-query.service.ts';
import * as repo from './views.repository.ts';
import { DEFAULT_COLUMNS, type ViewCreateInput, type ViewJson, type ViewPatchInput } from './views.schemas.ts';

function viewJson(row: repo.ViewRow): ViewJson {
  return {
    id: row.id,
    name: row.name,
    query: row.query,
    layout: row.layout,
    group_by: row.group_by as ViewJson['group_by'],
    columns: JSON.parse(row.columns) as string[],
    project: row.project_key,
    shared: row.shared === 1,
    created_by: { id: row.created_by, name: row.creator_name, handle: row.creator_handle },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The query must run: checked, and bound for its creator (a custom field used wrongly is caught here too). */
async function checkViewQuery(tx: Tx, principal: Principal, query: string, project: ProjectRef | null) {
  const projects = project ? [project] : [...(await visibleProjectsOf(tx.db, principal)).byId.values()];
  await bindFor(tx, tx.db, checkQuery(query), {
    accountId: principal.userId,
    organizationId: principal.organizationId,
    projects: projects.map((p) => ({ id: p.id, key: p.key })),
    timeZone: 'UTC',
  });
}

const projectOf = async (tx: AppContext, principal: Principal, key: string | null | undefined) =>
  key ? readableProjectByKey(tx.db, principal, key) : null;

export async function createView(tx: Tx, principal: Principal, input: ViewCreateInput): Promise<ViewJson> {
  const project = await projectOf(tx, principal, input.project);
  const shared = input.shared ?? false;
  authorizeViewShape(principal, { shared, project });
  const query = input.query ?? '';
  await checkViewQuery(tx, principal, query, project);
  const now = tx.clock.nowIso();
  const id = await repo.insertView(tx.db, {
    organization_id: principal.organizationId,
    created_by: principal.userId,
    project_id: project?.id ?? null,
    name: input.name,
    query,
    layout: input.layout ?? 'list',
    group_by: input.group_by ?? null,
    columns: JSON.stringify(input.columns ?? DEFAULT_COLUMNS),
    shared: shared ? 1 : 0,
    created_at: now,
    updated_at: now,
  });
  return getView(tx, principal, id);
}

export async function getView(ctx: AppContext, principal: Principal, id: number): Promise<ViewJson> {
  return viewJson(await foundOr404(repo.findVisibleView(ctx.db, principal, id), 'View'));
}

async function changeableView(tx: Tx, principal: Principal, id: number) {
  const row = await foundOr404(repo.findVisibleView(tx.db, principal, id), 'View');
  const project =
    row.project_id === null ? null : ((await visibleProjectsOf(tx.db, principal)).byId.get(row.project_id) ?? null);
  authorizeViewChange(principal, { created_by: row.created_by, shared: row.shared === 1, project });
  return { row, project };
}

export async function updateView(tx: Tx, principal: Principal, id: number, patch: ViewPatchInput): Promise<ViewJson> {
  const { row, project: current } = await changeableView(tx, principal, id);
  const project = patch.project === undefined ? current : await projectOf(tx, principal, patch.project);
  const shared = patch.shared ?? row.shared === 1;
  authorizeViewShape(principal, { shared, project });
  const query = patch.query ?? row.query;
  if (patch.query !== undefined || patch.project !== undefined) await checkViewQuery(tx, principal, query, project);
  await repo.updateView(tx.db, id, {
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.layout !== undefined ? { layout: patch.layout } : {}),
    ...(patch.group_by !== undefined ? { group_by: patch.group_by } : {}),
    ...(patch.columns !== undefined ? { columns: JSON.stringify(patch.columns) } : {}),
    query,
    project_id: project?.id ?? null,
    shared: shared ? 1 : 0,
    updated_at: tx.clock.nowIso(),
  });
  return getView(tx, principal, id);
}

export async function deleteView(tx: Tx, principal: Principal, id: number): Promise<void> {
  await changeableView(tx, principal, id);
  await repo.deleteView(tx.db, id);
}

export async function listViews(
  ctx: AppContext,
  principal: Principal,
  filter: { project?: string },
  page: PageRequest,
) {
  let projectId: number | null | undefined;
  if (filter.project === 'none') projectId = null;
  else if (filter.project !== undefined) {
    const project = (await visibleProjectsOf(ctx.db, principal)).byKey.get(filter.project);
    if (!project) throw notFound('Project');
    projectId = project.id;
  }
  const { rows, pagination } = await repo.visibleViewsPage(ctx.db, principal, projectId, page);
  return { data: rows.map(viewJson), pagination };
}

/** The tasks a view shows: its query, run for the caller (within its project, if it has one). */
export async function viewTasks(
  ctx: AppContext,
  principal: Principal,
  id: number,
  tz: string | undefined,
  page: PageRequest,
) {
  const view = await getView(ctx, principal, id);
  if (view.project === null) return listTasksByQuery(ctx, principal, { q: view.query, tz }, page);
  const project = await readableProjectByKey(ctx.db, principal, view.project);
  return pageOfQuery(ctx, principal, { projectId: project.id, filter: {} }, [project], { q: view.query, tz }, page);
}
