import type { AppContext } from '../../context.ts';
import { type BeforeCommit, transactionWith } from '../../db/before-commit.ts';
import { isForeignKeyViolation, isUniqueViolation, type Executor } from '../../db/database.ts';
import type { StatusCategory } from '../../db/schema.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { type PageRequest } from '../../http/pagination.ts';
import { paginate } from '../../db/paginate.ts';
import type { Principal } from '../auth/principal.ts';
import { lockProject } from '../projects/lock.ts';
import { projectFor } from '../../policy/index.ts';
import { presentStatus, selectStatuses, statusPositions, writeStatusPositions } from './workflows.repository.ts';

const ORDERABLE = {
  id: 's.id',
  project: 's.project_id',
  position: 's.position',
  name: 's.name',
  category: 's.category',
  created_at: 's.created_at',
  updated_at: 's.updated_at',
};

const nameTaken = (name: string) => new ApiError('ALREADY_EXISTS', `The project already has a status named "${name}".`, { field: 'name' });

export async function listStatuses(
  ctx: AppContext,
  principal: Principal,
  filters: { project?: number; category?: StatusCategory },
  page: PageRequest,
) {
  let query = selectStatuses(ctx.db, principal);
  if (filters.project !== undefined) query = query.where('s.project_id', '=', filters.project);
  if (filters.category !== undefined) query = query.where('s.category', '=', filters.category);
  const { rows, pagination } = await paginate(query, page, { idColumn: 's.id', orderable: ORDERABLE, defaultOrdering: 'project,position' });
  return { data: rows.map(presentStatus), pagination };
}

async function findStatus(db: Executor, principal: Principal, id: number) {
  const row = await selectStatuses(db, principal).where('s.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Status');
  return row;
}

export async function getStatus(ctx: AppContext, principal: Principal, id: number) {
  return presentStatus(await findStatus(ctx.db, principal, id));
}

type StatusJson = ReturnType<typeof presentStatus>;

export async function createStatus(
  ctx: AppContext,
  principal: Principal,
  input: { project: number; name: string; category: StatusCategory; position?: number },
  beforeCommit?: BeforeCommit<StatusJson>,
): Promise<StatusJson> {
  const project = await projectFor(ctx.db, principal, { id: input.project }, 'project.administer', 'statuses, transitions and workflows');
  const now = ctx.clock.nowIso();
  try {
    return await transactionWith(ctx.db, async (trx) => {
      await lockProject(trx, ctx.dialect, project.id);
      const positions = await statusPositions(trx, project.id);
      const order = [...positions.keys()];
      const row = await trx
        .insertInto('statuses')
        .values({ project_id: project.id, name: input.name, category: input.category, position: order.length, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      positions.set(row.id, order.length);
      order.splice(Math.min(input.position ?? order.length, order.length), 0, row.id);
      await writeStatusPositions(trx, order, positions, now);
      return presentStatus(await findStatus(trx, principal, row.id));
    }, beforeCommit);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
}

/** Renaming is safe: tasks reference the status by id, and show its current name. */
export async function updateStatus(ctx: AppContext, principal: Principal, id: number, changes: { name?: string; category?: StatusCategory }) {
  const current = await findStatus(ctx.db, principal, id);
  await projectFor(ctx.db, principal, { id: current.project }, 'project.administer', 'statuses, transitions and workflows');
  const set: { name?: string; category?: StatusCategory } = {};
  if (changes.name !== undefined && changes.name !== current.name) set.name = changes.name;
  if (changes.category !== undefined && changes.category !== current.category) set.category = changes.category;
  if (Object.keys(set).length === 0) return presentStatus(current);
  try {
    await ctx.db.updateTable('statuses').set({ ...set, updated_at: ctx.clock.nowIso() }).where('id', '=', id).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(changes.name ?? current.name);
    throw error;
  }
  return getStatus(ctx, principal, id);
}

async function inUse(db: Executor, statusId: number): Promise<ApiError | undefined> {
  const { count } = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status_id', '=', statusId)
    .executeTakeFirstOrThrow();
  const taskCount = Number(count);
  if (taskCount === 0) return undefined;
  return new ApiError('STATUS_IN_USE', `${taskCount} task(s) are in this status. Move them to another status first.`, {
    task_count: taskCount,
  });
}

/**
 * Spec 3 rule 2: a status that tasks reference is refused (409 STATUS_IN_USE), never
 * cascaded. An unreferenced status goes together with every transition into or out of it,
 * and the remaining statuses close the gap in board order.
 */
export async function deleteStatus(ctx: AppContext, principal: Principal, id: number): Promise<void> {
  const current = await findStatus(ctx.db, principal, id);
  const project = await projectFor(ctx.db, principal, { id: current.project }, 'project.administer', 'statuses, transitions and workflows');
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await lockProject(trx, ctx.dialect, project.id);
      const defaults = await trx.selectFrom('projects').select('default_status_id').where('id', '=', project.id).executeTakeFirstOrThrow();
      if (defaults.default_status_id === id) {
        throw new ApiError('STATUS_IS_DEFAULT', 'New tasks start in this status. Make another status the project default first.', {
          status: id,
        });
      }
      const refused = await inUse(trx, id);
      if (refused) throw refused;
      await trx
        .deleteFrom('transitions')
        .where((eb) => eb.or([eb('from_status_id', '=', id), eb('to_status_id', '=', id)]))
        .execute();
      await trx.deleteFrom('statuses').where('id', '=', id).execute();
      const positions = await statusPositions(trx, project.id);
      await writeStatusPositions(trx, [...positions.keys()], positions, ctx.clock.nowIso());
    });
  } catch (error) {
    // A task moved into the status after the count: the foreign key refuses the delete.
    if (isForeignKeyViolation(error)) throw (await inUse(ctx.db, id)) ?? error;
    throw error;
  }
}

/**
 * Spec 3 rule 3: reordering rewrites board positions only; no task row is read or written.
 * The body must name every status of the project exactly once, so a client working from a
 * stale list is told instead of silently producing a mixed order.
 */
export async function reorderStatuses(
  ctx: AppContext,
  principal: Principal,
  input: { project: number; statuses: number[] },
  beforeCommit?: BeforeCommit<StatusJson[]>,
): Promise<StatusJson[]> {
  const project = await projectFor(ctx.db, principal, { id: input.project }, 'project.administer', 'statuses, transitions and workflows');
  return transactionWith(ctx.db, async (trx) => {
    await lockProject(trx, ctx.dialect, project.id);
    const positions = await statusPositions(trx, project.id);
    const missing = [...positions.keys()].filter((id) => !input.statuses.includes(id));
    const unknown = input.statuses.filter((id) => !positions.has(id));
    if (missing.length || unknown.length) {
      throw new ApiError('VALIDATION_ERROR', 'statuses must list every status of the project exactly once.', {
        fields: { statuses: 'must list every status id of the project exactly once' },
        missing,
        unknown,
      });
    }
    await writeStatusPositions(trx, input.statuses, positions, ctx.clock.nowIso());
    const rows = await selectStatuses(trx, principal).where('s.project_id', '=', project.id).orderBy('s.position').orderBy('s.id').execute();
    return rows.map(presentStatus);
  }, beforeCommit);
}
