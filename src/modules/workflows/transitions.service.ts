import type { AppContext } from '../../context.ts';
import { type BeforeCommit, transactionWith } from '../../db/before-commit.ts';
import { isForeignKeyViolation, isUniqueViolation, type Executor, type Trx } from '../../db/database.ts';
import { ApiError, invalid, notFound } from '../../http/errors.ts';
import { type PageRequest } from '../../http/pagination.ts';
import { paginate } from '../../db/paginate.ts';
import type { Principal } from '../auth/principal.ts';
import { visibleProjectIds } from '../../policy/index.ts';
import { projectFor } from '../../policy/index.ts';
import { presentTransition, selectTransitions } from './workflows.repository.ts';

const ORDERABLE = { id: 't.id', workflow: 't.workflow_id', name: 't.name', created_at: 't.created_at', updated_at: 't.updated_at' };

/** The name a transition gets when none is given, and keeps following while it is unchanged. */
export const defaultTransitionName = (from: string, to: string) => `${from} → ${to}`;

export async function listTransitions(ctx: AppContext, principal: Principal, filters: { workflow?: number }, page: PageRequest) {
  let query = selectTransitions(ctx.db, principal);
  if (filters.workflow !== undefined) query = query.where('t.workflow_id', '=', filters.workflow);
  const { rows, pagination } = await paginate(query, page, { idColumn: 't.id', orderable: ORDERABLE, defaultOrdering: 'workflow' });
  return { data: rows.map(presentTransition), pagination };
}

async function findTransition(db: Executor, principal: Principal, id: number) {
  const row = await selectTransitions(db, principal).where('t.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Transition');
  return row;
}

type TransitionJson = ReturnType<typeof presentTransition>;

export async function getTransition(ctx: AppContext, principal: Principal, id: number) {
  return presentTransition(await findTransition(ctx.db, principal, id));
}

async function findWorkflow(db: Executor, principal: Principal, id: number) {
  const row = await db
    .selectFrom('workflows')
    .select(['id', 'project_id'])
    .where('id', '=', id)
    .where('project_id', 'in', visibleProjectIds(db, principal))
    .executeTakeFirst();
  if (!row) throw notFound('Workflow');
  return row;
}

/** Both ends must be distinct statuses of the workflow's own project; returns their names. */
async function checkPair(db: Executor, projectId: number, from: number, to: number): Promise<{ from: string; to: string }> {
  const rows = await db.selectFrom('statuses').select(['id', 'name']).where('project_id', '=', projectId).where('id', 'in', [from, to]).execute();
  const names = new Map(rows.map((r) => [r.id, r.name]));
  const bad: Record<string, string> = {};
  if (!names.has(from)) bad.from_status = "is not a status of the workflow's project";
  if (!names.has(to)) bad.to_status = "is not a status of the workflow's project";
  if (from === to) bad.to_status = 'must differ from from_status';
  if (Object.keys(bad).length) throw invalid(bad);
  return { from: names.get(from)!, to: names.get(to)! };
}

async function duplicate(db: Executor, workflowId: number, from: number, to: number): Promise<ApiError> {
  const existing = await db
    .selectFrom('transitions')
    .select('id')
    .where('workflow_id', '=', workflowId)
    .where('from_status_id', '=', from)
    .where('to_status_id', '=', to)
    .executeTakeFirst();
  return new ApiError('ALREADY_EXISTS', 'The workflow already has a transition between these statuses.', {
    field: 'to_status',
    ...(existing ? { transition: existing.id } : {}),
  });
}

/**
 * A status or the workflow was deleted between the checks and the write (the foreign keys
 * caught it): answer as if the request had arrived after the delete.
 */
async function vanished(
  db: Executor,
  principal: Principal,
  cause: unknown,
  target: { workflow: number; project: number; from: number; to: number },
): Promise<unknown> {
  try {
    await findWorkflow(db, principal, target.workflow);
    await checkPair(db, target.project, target.from, target.to);
  } catch (error) {
    return error;
  }
  return cause;
}

/** The workflow's JSON embeds its transitions, so any transition change is a change of the workflow. */
async function touchWorkflow(trx: Trx, workflowId: number, now: string): Promise<void> {
  await trx.updateTable('workflows').set({ updated_at: now }).where('id', '=', workflowId).execute();
}

export async function createTransition(
  ctx: AppContext,
  principal: Principal,
  input: { workflow: number; from_status: number; to_status: number; name?: string },
  beforeCommit?: BeforeCommit<TransitionJson>,
): Promise<TransitionJson> {
  const workflow = await findWorkflow(ctx.db, principal, input.workflow);
  await projectFor(ctx.db, principal, { id: workflow.project_id }, 'project.administer', 'statuses, transitions and workflows');
  const names = await checkPair(ctx.db, workflow.project_id, input.from_status, input.to_status);
  const now = ctx.clock.nowIso();
  try {
    return await transactionWith(ctx.db, async (trx) => {
      const row = await trx
        .insertInto('transitions')
        .values({
          workflow_id: workflow.id,
          from_status_id: input.from_status,
          to_status_id: input.to_status,
          name: input.name ?? defaultTransitionName(names.from, names.to),
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await touchWorkflow(trx, workflow.id, now);
      return presentTransition(await findTransition(trx, principal, row.id));
    }, beforeCommit);
  } catch (error) {
    if (isUniqueViolation(error)) throw await duplicate(ctx.db, workflow.id, input.from_status, input.to_status);
    if (isForeignKeyViolation(error)) {
      const target = { workflow: workflow.id, project: workflow.project_id, from: input.from_status, to: input.to_status };
      throw await vanished(ctx.db, principal, error, target);
    }
    throw error;
  }
}

export async function updateTransition(
  ctx: AppContext,
  principal: Principal,
  id: number,
  changes: { from_status?: number; to_status?: number; name?: string },
) {
  const current = await findTransition(ctx.db, principal, id);
  await projectFor(ctx.db, principal, { id: current.project }, 'project.administer', 'statuses, transitions and workflows');
  const from = changes.from_status ?? current.from_status;
  const to = changes.to_status ?? current.to_status;
  const pairChanged = from !== current.from_status || to !== current.to_status;

  let name = changes.name ?? current.name;
  if (pairChanged) {
    const names = await checkPair(ctx.db, current.project, from, to);
    // A name that was only ever the default follows the new pair; a chosen name is kept.
    if (changes.name === undefined && current.name === defaultTransitionName(current.from_status_name, current.to_status_name)) {
      name = defaultTransitionName(names.from, names.to);
    }
  }
  if (!pairChanged && name === current.name) return presentTransition(current);

  const now = ctx.clock.nowIso();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('transitions').set({ from_status_id: from, to_status_id: to, name, updated_at: now }).where('id', '=', id).execute();
      await touchWorkflow(trx, current.workflow, now);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw await duplicate(ctx.db, current.workflow, from, to);
    if (isForeignKeyViolation(error)) {
      throw await vanished(ctx.db, principal, error, { workflow: current.workflow, project: current.project, from, to });
    }
    throw error;
  }
  return getTransition(ctx, principal, id);
}

export async function deleteTransition(ctx: AppContext, principal: Principal, id: number): Promise<void> {
  const current = await findTransition(ctx.db, principal, id);
  await projectFor(ctx.db, principal, { id: current.project }, 'project.administer', 'statuses, transitions and workflows');
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('transitions').where('id', '=', id).execute();
    await touchWorkflow(trx, current.workflow, ctx.clock.nowIso());
  });
}
