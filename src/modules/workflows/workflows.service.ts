import type { AppContext } from '../../context.ts';
import { type BeforeCommit, transactionWith } from '../../db/before-commit.ts';
import { isUniqueViolation, type Executor, type Trx } from '../../db/database.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { type PageRequest } from '../../http/pagination.ts';
import { paginate } from '../../db/paginate.ts';
import type { Principal } from '../auth/principal.ts';
import { lockProject } from '../projects/lock.ts';
import { projectFor } from '../../policy/index.ts';
import { presentWorkflows, selectWorkflows } from './workflows.repository.ts';

const ORDERABLE = { id: 'w.id', project: 'w.project_id', name: 'w.name', created_at: 'w.created_at', updated_at: 'w.updated_at' };

const nameTaken = (name: string) => new ApiError('ALREADY_EXISTS', `The project already has a workflow named "${name}".`, { field: 'name' });

const inUse = () =>
  new ApiError('WORKFLOW_IN_USE', "This is the project's active workflow. Activate another workflow of the project first.");

export async function listWorkflows(ctx: AppContext, principal: Principal, filters: { project?: number }, page: PageRequest) {
  let query = selectWorkflows(ctx.db, principal);
  if (filters.project !== undefined) query = query.where('w.project_id', '=', filters.project);
  const { rows, pagination } = await paginate(query, page, { idColumn: 'w.id', orderable: ORDERABLE, defaultOrdering: 'project' });
  return { data: await presentWorkflows(ctx.db, rows), pagination };
}

async function findWorkflow(db: Executor, principal: Principal, id: number) {
  const row = await selectWorkflows(db, principal).where('w.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Workflow');
  return row;
}

export async function getWorkflow(ctx: AppContext, principal: Principal, id: number) {
  return visibleWorkflow(ctx.db, principal, id);
}

async function visibleWorkflow(db: Executor, principal: Principal, id: number) {
  const [workflow] = await presentWorkflows(db, [await findWorkflow(db, principal, id)]);
  return workflow!;
}

type WorkflowJson = Awaited<ReturnType<typeof visibleWorkflow>>;

/**
 * Points the project at the workflow; from then on its transitions decide every task status
 * change. Both workflows' `active` flips, so both count as updated.
 */
async function activate(trx: Trx, projectId: number, workflowId: number, now: string): Promise<void> {
  const project = await trx.selectFrom('projects').select('workflow_id').where('id', '=', projectId).executeTakeFirstOrThrow();
  await trx.updateTable('projects').set({ workflow_id: workflowId, updated_at: now }).where('id', '=', projectId).execute();
  const touched = project.workflow_id === null ? [workflowId] : [workflowId, project.workflow_id];
  await trx.updateTable('workflows').set({ updated_at: now }).where('id', 'in', touched).execute();
}

async function isActive(trx: Trx, projectId: number, workflowId: number): Promise<boolean> {
  const project = await trx.selectFrom('projects').select('workflow_id').where('id', '=', projectId).executeTakeFirstOrThrow();
  return project.workflow_id === workflowId;
}

export async function createWorkflow(
  ctx: AppContext,
  principal: Principal,
  input: { project: number; name: string; description?: string; active?: boolean },
  beforeCommit?: BeforeCommit<WorkflowJson>,
): Promise<WorkflowJson> {
  const project = await projectFor(ctx.db, principal, { id: input.project }, 'project.administer', 'statuses, transitions and workflows');
  const now = ctx.clock.nowIso();
  try {
    return await transactionWith(ctx.db, async (trx) => {
      const row = await trx
        .insertInto('workflows')
        .values({ project_id: project.id, name: input.name, description: input.description ?? '', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (input.active) {
        await lockProject(trx, ctx.dialect, project.id);
        await activate(trx, project.id, row.id, now);
      }
      return visibleWorkflow(trx, principal, row.id);
    }, beforeCommit);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
}

/**
 * `active: true` switches the project to this workflow (the previous one stays, inactive).
 * `active: false` on the active workflow is refused: a project always has exactly one.
 */
export async function updateWorkflow(
  ctx: AppContext,
  principal: Principal,
  id: number,
  changes: { name?: string; description?: string; active?: boolean },
) {
  const current = await findWorkflow(ctx.db, principal, id);
  await projectFor(ctx.db, principal, { id: current.project }, 'project.administer', 'statuses, transitions and workflows');
  const now = ctx.clock.nowIso();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await lockProject(trx, ctx.dialect, current.project);
      const active = await isActive(trx, current.project, id);
      if (changes.active === false && active) throw inUse();
      if (changes.active === true && !active) await activate(trx, current.project, id, now);

      const set: { name?: string; description?: string } = {};
      if (changes.name !== undefined && changes.name !== current.name) set.name = changes.name;
      if (changes.description !== undefined && changes.description !== current.description) set.description = changes.description;
      if (Object.keys(set).length) await trx.updateTable('workflows').set({ ...set, updated_at: now }).where('id', '=', id).execute();
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(changes.name ?? current.name);
    throw error;
  }
  return getWorkflow(ctx, principal, id);
}

/** An inactive workflow goes with its transitions; the project's statuses are untouched. */
export async function deleteWorkflow(ctx: AppContext, principal: Principal, id: number): Promise<void> {
  const current = await findWorkflow(ctx.db, principal, id);
  await projectFor(ctx.db, principal, { id: current.project }, 'project.administer', 'statuses, transitions and workflows');
  await ctx.db.transaction().execute(async (trx) => {
    await lockProject(trx, ctx.dialect, current.project);
    if (await isActive(trx, current.project, id)) throw inUse();
    await trx.deleteFrom('transitions').where('workflow_id', '=', id).execute();
    await trx.deleteFrom('workflows').where('id', '=', id).execute();
  });
}
