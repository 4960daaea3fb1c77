import type { AppContext } from '../../context.ts';
import { type BeforeCommit, transactionWith } from '../../db/before-commit.ts';
import { type Executor, isUniqueViolation } from '../../db/database.ts';
import { ApiError, invalid, notFound } from '../../http/errors.ts';
import { type PageRequest } from '../../http/pagination.ts';
import { paginate } from '../../db/paginate.ts';
import type { ActionOrigin } from '../../events/record-event.ts';
import type { Principal } from '../auth/principal.ts';
import { projectFor } from '../../policy/index.ts';
import { nameTaken } from './planning.repository.ts';
import { detachFromTasks } from './detach.ts';
import { presentSprint, selectSprints } from './planning.repository.ts';

type SprintState = 'planned' | 'active' | 'completed';

export interface SprintFields {
  name: string;
  goal: string;
  start_date: string | null;
  end_date: string | null;
  state: SprintState;
}

const ORDERABLE = {
  id: 'sp.id',
  name: 'sp.name',
  start_date: 'start_date_sort',
  end_date: 'end_date_sort',
  state: 'sp.state',
  created_at: 'sp.created_at',
  updated_at: 'sp.updated_at',
};

export async function listSprints(ctx: AppContext, principal: Principal, projectKey: string, filters: { state?: SprintState }, page: PageRequest) {
  const project = await projectFor(ctx.db, principal, { key: projectKey });
  let query = selectSprints(ctx.db, principal).where('sp.project_id', '=', project.id);
  if (filters.state !== undefined) query = query.where('sp.state', '=', filters.state);
  const { rows, pagination } = await paginate(query, page, { idColumn: 'sp.id', orderable: ORDERABLE, defaultOrdering: 'start_date' });
  return { data: rows.map(presentSprint), pagination };
}

async function findSprint(db: Executor, principal: Principal, id: number) {
  const row = await selectSprints(db, principal).where('sp.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Sprint');
  return row;
}

export async function getSprint(ctx: AppContext, principal: Principal, id: number) {
  return presentSprint(await findSprint(ctx.db, principal, id));
}

function checkDates(start: string | null, end: string | null): void {
  // YYYY-MM-DD strings compare like the dates they name.
  if (start !== null && end !== null && end < start) throw invalid({ end_date: 'must not be before start_date' });
}

async function otherActiveSprint(ctx: AppContext, projectId: number, exceptId: number | null) {
  let query = ctx.db.selectFrom('sprints').select(['id', 'name']).where('project_id', '=', projectId).where('state', '=', 'active');
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  return query.executeTakeFirst();
}

function activeExists(active: { id: number; name: string }): ApiError {
  return new ApiError('ACTIVE_SPRINT_EXISTS', `Sprint "${active.name}" is already active. Complete it before starting another.`, {
    sprint: active.id,
  });
}

async function assertNoOtherActive(ctx: AppContext, projectId: number, exceptId: number | null): Promise<void> {
  const active = await otherActiveSprint(ctx, projectId, exceptId);
  if (active) throw activeExists(active);
}

/** A unique violation is either the name or the one-active-sprint index; say which. */
async function explainConflict(ctx: AppContext, error: unknown, projectId: number, name: string, selfId: number | null): Promise<unknown> {
  if (!isUniqueViolation(error)) return error;
  let sameName = ctx.db.selectFrom('sprints').select('id').where('project_id', '=', projectId).where('name', '=', name);
  if (selfId !== null) sameName = sameName.where('id', '!=', selfId);
  if (await sameName.executeTakeFirst()) return nameTaken('sprint', name);
  const active = await otherActiveSprint(ctx, projectId, selfId);
  return active ? activeExists(active) : error;
}

export async function createSprint(
  ctx: AppContext,
  principal: Principal,
  projectKey: string,
  input: Partial<SprintFields> & { name: string },
  beforeCommit?: BeforeCommit<ReturnType<typeof presentSprint>>,
) {
  const project = await projectFor(ctx.db, principal, { key: projectKey }, 'project.contribute', 'labels, milestones and sprints');
  const fields: SprintFields = {
    name: input.name,
    goal: input.goal ?? '',
    start_date: input.start_date ?? null,
    end_date: input.end_date ?? null,
    state: input.state ?? 'planned',
  };
  checkDates(fields.start_date, fields.end_date);
  if (fields.state === 'active') await assertNoOtherActive(ctx, project.id, null);
  const now = ctx.clock.nowIso();
  try {
    return await transactionWith(ctx.db, async (trx) => {
      const row = await trx
        .insertInto('sprints')
        .values({ project_id: project.id, ...fields, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return presentSprint(await findSprint(trx, principal, row.id));
    }, beforeCommit);
  } catch (error) {
    throw await explainConflict(ctx, error, project.id, fields.name, null);
  }
}

/** Any state change is allowed (start, complete, reopen) as long as at most one sprint is active. */
export async function updateSprint(ctx: AppContext, principal: Principal, id: number, changes: Partial<SprintFields>) {
  const current = await findSprint(ctx.db, principal, id);
  await projectFor(ctx.db, principal, { id: current.project_id }, 'project.contribute', 'labels, milestones and sprints');
  const set: Partial<SprintFields> = {};
  for (const field of ['name', 'goal', 'start_date', 'end_date', 'state'] as const) {
    if (changes[field] !== undefined && changes[field] !== current[field]) Object.assign(set, { [field]: changes[field] });
  }
  if (Object.keys(set).length === 0) return presentSprint(current);
  checkDates(set.start_date !== undefined ? set.start_date : current.start_date, set.end_date !== undefined ? set.end_date : current.end_date);
  if (set.state === 'active') await assertNoOtherActive(ctx, current.project_id, id);
  try {
    await ctx.db.updateTable('sprints').set({ ...set, updated_at: ctx.clock.nowIso() }).where('id', '=', id).execute();
  } catch (error) {
    throw await explainConflict(ctx, error, current.project_id, set.name ?? current.name, id);
  }
  return getSprint(ctx, principal, id);
}

/** Tasks in the sprint lose it (`sprint` becomes null) and the sprint is deleted, in one transaction. */
export async function deleteSprint(ctx: AppContext, principal: Principal, id: number, origin: ActionOrigin): Promise<void> {
  const current = await findSprint(ctx.db, principal, id);
  await projectFor(ctx.db, principal, { id: current.project_id }, 'project.contribute', 'labels, milestones and sprints');
  await ctx.db.transaction().execute(async (trx) => {
    await detachFromTasks(trx, ctx, origin, { kind: 'sprint', id });
    await trx.deleteFrom('sprints').where('id', '=', id).execute();
  });
}
