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
import { LABEL_DEFAULT_COLOR } from './planning.schemas.ts';
import { presentLabel, selectLabels } from './planning.repository.ts';

const ORDERABLE = { id: 'l.id', name: 'l.name', created_at: 'l.created_at', updated_at: 'l.updated_at' };

export interface LabelFields {
  name: string;
  color: string;
  description: string;
}

export async function listLabels(ctx: AppContext, principal: Principal, projectKey: string, page: PageRequest) {
  const project = await projectFor(ctx.db, principal, { key: projectKey });
  const query = selectLabels(ctx.db, principal).where('l.project_id', '=', project.id);
  const { rows, pagination } = await paginate(query, page, { idColumn: 'l.id', orderable: ORDERABLE, defaultOrdering: 'name' });
  return { data: rows.map(presentLabel), pagination };
}

async function findLabel(db: Executor, principal: Principal, id: number) {
  const row = await selectLabels(db, principal).where('l.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Label');
  return row;
}

export async function getLabel(ctx: AppContext, principal: Principal, id: number) {
  return presentLabel(await findLabel(ctx.db, principal, id));
}

export async function createLabel(
  ctx: AppContext,
  principal: Principal,
  projectKey: string,
  input: Partial<LabelFields> & { name: string },
  beforeCommit?: BeforeCommit<ReturnType<typeof presentLabel>>,
) {
  const project = await projectFor(ctx.db, principal, { key: projectKey }, 'project.contribute', 'labels, milestones and sprints');
  const now = ctx.clock.nowIso();
  try {
    return await transactionWith(ctx.db, async (trx) => {
      const row = await trx
        .insertInto('labels')
        .values({
          project_id: project.id,
          name: input.name,
          color: (input.color ?? LABEL_DEFAULT_COLOR).toLowerCase(),
          description: input.description ?? '',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return presentLabel(await findLabel(trx, principal, row.id));
    }, beforeCommit);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken('label', input.name);
    throw error;
  }
}

/** Renaming a label renames it on every task at once: tasks carry labels by reference. */
export async function updateLabel(ctx: AppContext, principal: Principal, id: number, changes: Partial<LabelFields>) {
  const current = await findLabel(ctx.db, principal, id);
  await projectFor(ctx.db, principal, { id: current.project_id }, 'project.contribute', 'labels, milestones and sprints');
  const set: Partial<LabelFields> = {};
  if (changes.name !== undefined && changes.name !== current.name) set.name = changes.name;
  if (changes.color !== undefined && changes.color.toLowerCase() !== current.color) set.color = changes.color.toLowerCase();
  if (changes.description !== undefined && changes.description !== current.description) set.description = changes.description;
  if (Object.keys(set).length === 0) return presentLabel(current);
  try {
    await ctx.db.updateTable('labels').set({ ...set, updated_at: ctx.clock.nowIso() }).where('id', '=', id).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken('label', changes.name ?? current.name);
    throw error;
  }
  return getLabel(ctx, principal, id);
}

/** The label comes off every task that carries it, and is deleted, in one transaction. */
export async function deleteLabel(ctx: AppContext, principal: Principal, id: number, origin: ActionOrigin): Promise<void> {
  const current = await findLabel(ctx.db, principal, id);
  await projectFor(ctx.db, principal, { id: current.project_id }, 'project.contribute', 'labels, milestones and sprints');
  await ctx.db.transaction().execute(async (trx) => {
    await detachFromTasks(trx, ctx, origin, { kind: 'label', id });
    await trx.deleteFrom('labels').where('id', '=', id).execute();
  });
}
