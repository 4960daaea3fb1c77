import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/database.ts';
import { presentPage } from '../../db/present-page.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import type { ActionOrigin } from '../../events/record-event.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../auth/principal.ts';
import { projectFor } from '../../policy/index.ts';
import { visibleOne } from '../../policy/visible-one.ts';
import { deleteAndDetach } from './detach.ts';
import { nameTaken } from './planning.errors.ts';
import { presentMilestone } from './planning.presenter.ts';
import * as repo from './planning.repository.ts';

export type MilestoneFields = repo.MilestoneValues;

const ORDERABLE = {
  id: 'm.id',
  name: 'm.name',
  due_date: 'due_date_sort',
  state: 'm.state',
  created_at: 'm.created_at',
  updated_at: 'm.updated_at',
};
const PLANNING = 'labels, milestones and sprints';

export async function listMilestones(
  ctx: AppContext,
  principal: Principal,
  projectKey: string,
  filters: { state?: MilestoneFields['state'] },
  page: PageRequest,
) {
  const project = await projectFor(ctx.db, principal, { key: projectKey });
  const query = repo.milestonesOfProject(ctx.db, principal, project.id, filters.state);
  return presentPage(query, page, { idColumn: 'm.id', orderable: ORDERABLE, defaultOrdering: 'due_date' }, presentMilestone);
}

const visibleMilestone = visibleOne('Milestone', repo.findVisibleMilestone, presentMilestone);
export const getMilestone = visibleMilestone.read;

export async function createMilestone(tx: Tx, principal: Principal, projectKey: string, input: Partial<MilestoneFields> & { name: string }) {
  const project = await projectFor(tx.db, principal, { key: projectKey }, 'project.contribute', PLANNING);
  const values = { name: input.name, description: input.description ?? '', due_date: input.due_date ?? null, state: input.state ?? 'open' };
  let id: number;
  try {
    id = await repo.insertMilestone(tx.db, project.id, values, tx.clock.nowIso());
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken('milestone', input.name);
    throw error;
  }
  return visibleMilestone.read(tx, principal, id);
}

export async function updateMilestone(tx: Tx, principal: Principal, id: number, changes: Partial<MilestoneFields>) {
  const current = await visibleMilestone.find(tx, principal, id);
  await projectFor(tx.db, principal, { id: current.project_id }, 'project.contribute', PLANNING);
  const set: Partial<MilestoneFields> = {};
  for (const field of ['name', 'description', 'due_date', 'state'] as const) {
    if (changes[field] !== undefined && changes[field] !== current[field]) Object.assign(set, { [field]: changes[field] });
  }
  if (Object.keys(set).length === 0) return presentMilestone(current);
  try {
    await repo.updateMilestoneFields(tx.db, id, set, tx.clock.nowIso());
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken('milestone', changes.name ?? current.name);
    throw error;
  }
  return visibleMilestone.read(tx, principal, id);
}

/** Tasks in the milestone lose it (`milestone` becomes null) and the milestone is deleted, in one transaction. */
export async function deleteMilestone(tx: Tx, principal: Principal, id: number, origin: ActionOrigin): Promise<void> {
  const current = await visibleMilestone.find(tx, principal, id);
  await projectFor(tx.db, principal, { id: current.project_id }, 'project.contribute', PLANNING);
  await deleteAndDetach(tx, origin, { kind: 'milestone', id });
}
