import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import type { ActionOrigin } from '../../events/record-event.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { projectFor } from '../../policy/index.ts';
import { changedFields, planningItems, uniqueNameWrites } from './planning-items.ts';
import { presentMilestone } from './planning.presenter.ts';
import * as repo from './planning.repository.ts';

export type MilestoneFields = repo.MilestoneValues;

export async function listMilestones(
  ctx: AppContext,
  principal: Principal,
  projectKey: string,
  filters: { state?: MilestoneFields['state'] },
  page: PageRequest,
) {
  const project = await projectFor(ctx.db, principal, { key: projectKey });
  const { rows, pagination } = await repo.milestonesPage(ctx.db, principal, project.id, filters.state, page);
  return { data: rows.map((row) => presentMilestone(row)), pagination };
}

const milestones = planningItems(
  'milestone',
  repo.findVisibleMilestone,
  presentMilestone,
  uniqueNameWrites('milestone', repo.insertMilestone, repo.updateMilestoneFields),
);
export const getMilestone = milestones.read;

export async function createMilestone(
  tx: Tx,
  principal: Principal,
  projectKey: string,
  input: Partial<MilestoneFields> & { name: string },
) {
  const values = {
    name: input.name,
    description: input.description ?? '',
    due_date: input.due_date ?? null,
    state: input.state ?? 'open',
  };
  return milestones.create(tx, principal, projectKey, values);
}

export async function updateMilestone(tx: Tx, principal: Principal, id: number, changes: Partial<MilestoneFields>) {
  return milestones.update(tx, principal, id, (current) =>
    changedFields(current, changes, ['name', 'description', 'due_date', 'state']),
  );
}

/** Tasks in the milestone lose it (`milestone` becomes null) and the milestone is deleted, in one transaction. */
export async function deleteMilestone(tx: Tx, principal: Principal, id: number, origin: ActionOrigin): Promise<void> {
  await milestones.remove(tx, principal, id, origin);
}
