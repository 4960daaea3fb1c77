import type { AppContext } from '../../context.ts';
import { isUniqueViolation, type Executor } from '../../db/database.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { ApiError, foundOr404 } from '../../http/errors.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { projectFor } from '../../policy/index.ts';
import { lockProject } from '../projects/projects.repository.ts';
import { transitionsOfWorkflows } from './transitions.repository.ts';
import { presentWorkflows, type WorkflowJson } from './workflows.presenter.ts';
import * as repo from './workflows.repository.ts';
import { changedFields, hasChanges, recordAudit } from '../audit/record-audit.ts';

const CONFIGURATION = 'statuses, transitions and workflows';

const nameTaken = (name: string) =>
  new ApiError('ALREADY_EXISTS', `The project already has a workflow named "${name}".`, { field: 'name' });

const inUse = () =>
  new ApiError(
    'WORKFLOW_IN_USE',
    "This is the project's active workflow. Activate another workflow of the project first.",
  );

/** Workflows with their transitions, fetched in one extra query for the whole page. */
async function withTransitions(db: Executor, rows: repo.WorkflowRow[]): Promise<WorkflowJson[]> {
  if (rows.length === 0) return [];
  return presentWorkflows(
    rows,
    await transitionsOfWorkflows(
      db,
      rows.map((r) => r.id),
    ),
  );
}

export async function listWorkflows(
  ctx: AppContext,
  principal: Principal,
  filters: { project?: number },
  page: PageRequest,
) {
  const { rows, pagination } = await repo.workflowsPage(ctx.db, principal, filters, page);
  return { data: await withTransitions(ctx.db, rows), pagination };
}

async function findWorkflow(db: Executor, principal: Principal, id: number) {
  return foundOr404(repo.findVisibleWorkflow(db, principal, id), 'Workflow');
}

export async function getWorkflow(ctx: AppContext, principal: Principal, id: number) {
  return visibleWorkflow(ctx.db, principal, id);
}

async function visibleWorkflow(db: Executor, principal: Principal, id: number): Promise<WorkflowJson> {
  const [workflow] = await withTransitions(db, [await findWorkflow(db, principal, id)]);
  return workflow!;
}

/**
 * Points the project at the workflow; from then on its transitions decide every task status
 * change. Both workflows' `active` flips, so both count as updated.
 */
async function activate(db: Executor, projectId: number, workflowId: number, now: string): Promise<void> {
  const previous = await repo.activeWorkflowOf(db, projectId);
  await repo.setActiveWorkflow(db, projectId, workflowId, now);
  await repo.touchWorkflows(db, previous === null ? [workflowId] : [workflowId, previous], now);
}

export async function createWorkflow(
  tx: Tx,
  principal: Principal,
  input: { project: number; name: string; description?: string; active?: boolean },
): Promise<WorkflowJson> {
  const project = await projectFor(tx.db, principal, { id: input.project }, 'project.administer', CONFIGURATION);
  const now = tx.clock.nowIso();
  let id: number;
  try {
    id = await repo.insertWorkflow(tx.db, {
      project_id: project.id,
      name: input.name,
      description: input.description ?? '',
      at: now,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
  if (input.active) {
    await lockProject(tx.db, tx.dialect, project.id);
    await activate(tx.db, project.id, id, now);
  }
  const created = await visibleWorkflow(tx.db, principal, id);
  await recordAudit(tx, {
    organizationId: principal.organizationId,
    actor: principal,
    action: 'workflow.created',
    target: { type: 'workflow', id, label: created.name },
    projectId: project.id,
    after: auditedWorkflow(created),
  });
  return created;
}

/** What an audit record keeps of a workflow. */
function auditedWorkflow(workflow: { name: string; description: string; active: boolean }) {
  return { name: workflow.name, description: workflow.description, active: workflow.active };
}

/**
 * `active: true` switches the project to this workflow (the previous one stays, inactive).
 * `active: false` on the active workflow is refused: a project always has exactly one.
 */
export async function updateWorkflow(
  tx: Tx,
  principal: Principal,
  id: number,
  changes: { name?: string; description?: string; active?: boolean },
) {
  const current = await findWorkflow(tx.db, principal, id);
  await projectFor(tx.db, principal, { id: current.project }, 'project.administer', CONFIGURATION);
  const now = tx.clock.nowIso();
  await lockProject(tx.db, tx.dialect, current.project);
  const active = (await repo.activeWorkflowOf(tx.db, current.project)) === id;
  if (changes.active === false && active) throw inUse();
  if (changes.active === true && !active) await activate(tx.db, current.project, id, now);

  const set: { name?: string; description?: string } = {};
  if (changes.name !== undefined && changes.name !== current.name) set.name = changes.name;
  if (changes.description !== undefined && changes.description !== current.description)
    set.description = changes.description;
  if (Object.keys(set).length) {
    try {
      await repo.updateWorkflowFields(tx.db, id, set, now);
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(changes.name ?? current.name);
      throw error;
    }
  }
  const after = await visibleWorkflow(tx.db, principal, id);
  const changed = changedFields(
    { name: current.name, description: current.description, active },
    auditedWorkflow(after),
  );
  if (hasChanges(changed))
    await recordAudit(tx, {
      organizationId: principal.organizationId,
      actor: principal,
      action: 'workflow.updated',
      target: { type: 'workflow', id, label: after.name },
      projectId: current.project,
      ...changed,
    });
  return after;
}

/** An inactive workflow goes with its transitions; the project's statuses are untouched. */
export async function deleteWorkflow(tx: Tx, principal: Principal, id: number): Promise<void> {
  const current = await findWorkflow(tx.db, principal, id);
  await projectFor(tx.db, principal, { id: current.project }, 'project.administer', CONFIGURATION);
  await lockProject(tx.db, tx.dialect, current.project);
  if ((await repo.activeWorkflowOf(tx.db, current.project)) === id) throw inUse();
  await repo.deleteWorkflowWithTransitions(tx.db, id);
  await recordAudit(tx, {
    organizationId: principal.organizationId,
    actor: principal,
    action: 'workflow.deleted',
    target: { type: 'workflow', id, label: current.name },
    projectId: current.project,
    before: { name: current.name, description: current.description },
  });
}
