import type { AppContext } from '../../context.ts';
import { type BeforeCommit, transactionWith } from '../../db/before-commit.ts';
import { type Executor, isUniqueViolation } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import { type PageRequest } from '../../http/pagination.ts';
import { paginate } from '../../db/paginate.ts';
import type { ActionOrigin } from '../../events/record-event.ts';
import type { Principal } from '../auth/principal.ts';
import { projectFor } from '../../policy/index.ts';
import { nameTaken } from './planning.repository.ts';
import { detachFromTasks } from './detach.ts';
import { presentMilestone, selectMilestones } from './planning.repository.ts';

type MilestoneState = 'open' | 'closed';

export interface MilestoneFields {
  name: string;
  description: string;
  due_date: string | null;
  state: MilestoneState;
}

const ORDERABLE = {
  id: 'm.id',
  name: 'm.name',
  due_date: 'due_date_sort',
  state: 'm.state',
  created_at: 'm.created_at',
  updated_at: 'm.updated_at',
};

export async function listMilestones(
  ctx: AppContext,
  principal: Principal,
  projectKey: string,
  filters: { state?: MilestoneState },
  page: PageRequest,
) {
  const project = await projectFor(ctx.db, principal, { key: projectKey });
  let query = selectMilestones(ctx.db, principal).where('m.project_id', '=', project.id);
  if (filters.state !== undefined) query = query.where('m.state', '=', filters.state);
  const { rows, pagination } = await paginate(query, page, { idColumn: 'm.id', orderable: ORDERABLE, defaultOrdering: 'due_date' });
  return { data: rows.map(presentMilestone), pagination };
}

async function findMilestone(db: Executor, principal: Principal, id: number) {
  const row = await selectMilestones(db, principal).where('m.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Milestone');
  return row;
}

export async function getMilestone(ctx: AppContext, principal: Principal, id: number) {
  return presentMilestone(await findMilestone(ctx.db, principal, id));
}

export async function createMilestone(
  ctx: AppContext,
  principal: Principal,
  projectKey: string,
  input: Partial<MilestoneFields> & { name: string },
  beforeCommit?: BeforeCommit<ReturnType<typeof presentMilestone>>,
) {
  const project = await projectFor(ctx.db, principal, { key: projectKey }, 'project.contribute', 'labels, milestones and sprints');
  const now = ctx.clock.nowIso();
  try {
    return await transactionWith(ctx.db, async (trx) => {
      const row = await trx
        .insertInto('milestones')
        .values({
          project_id: project.id,
          name: input.name,
          description: input.description ?? '',
          due_date: input.due_date ?? null,
          state: input.state ?? 'open',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return presentMilestone(await findMilestone(trx, principal, row.id));
    }, beforeCommit);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken('milestone', input.name);
    throw error;
  }
}

export async function updateMilestone(ctx: AppContext, principal: Principal, id: number, changes: Partial<MilestoneFields>) {
  const current = await findMilestone(ctx.db, principal, id);
  await projectFor(ctx.db, principal, { id: current.project_id }, 'project.contribute', 'labels, milestones and sprints');
  const set: Partial<MilestoneFields> = {};
  for (const field of ['name', 'description', 'due_date', 'state'] as const) {
    if (changes[field] !== undefined && changes[field] !== current[field]) Object.assign(set, { [field]: changes[field] });
  }
  if (Object.keys(set).length === 0) return presentMilestone(current);
  try {
    await ctx.db.updateTable('milestones').set({ ...set, updated_at: ctx.clock.nowIso() }).where('id', '=', id).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken('milestone', changes.name ?? current.name);
    throw error;
  }
  return getMilestone(ctx, principal, id);
}

/** Tasks in the milestone lose it (`milestone` becomes null) and the milestone is deleted, in one transaction. */
export async function deleteMilestone(ctx: AppContext, principal: Principal, id: number, origin: ActionOrigin): Promise<void> {
  const current = await findMilestone(ctx.db, principal, id);
  await projectFor(ctx.db, principal, { id: current.project_id }, 'project.contribute', 'labels, milestones and sprints');
  await ctx.db.transaction().execute(async (trx) => {
    await detachFromTasks(trx, ctx, origin, { kind: 'milestone', id });
    await trx.deleteFrom('milestones').where('id', '=', id).execute();
  });
}
