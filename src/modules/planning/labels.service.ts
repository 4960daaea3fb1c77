import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import type { ActionOrigin } from '../../events/record-event.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { projectFor } from '../../policy/index.ts';
import { changedFields, planningItems, uniqueNameWrites } from './planning-items.ts';
import { presentLabel } from './planning.presenter.ts';
import * as repo from './planning.repository.ts';
import { LABEL_DEFAULT_COLOR } from './planning.schemas.ts';

export type LabelFields = repo.LabelValues;

export async function listLabels(ctx: AppContext, principal: Principal, projectKey: string, page: PageRequest) {
  const project = await projectFor(ctx.db, principal, { key: projectKey });
  const { rows, pagination } = await repo.labelsPage(ctx.db, principal, project.id, undefined, page);
  return { data: rows.map((row) => presentLabel(row)), pagination };
}

const labels = planningItems(
  'label',
  repo.findVisibleLabel,
  presentLabel,
  uniqueNameWrites('label', repo.insertLabel, repo.updateLabelFields),
);
export const getLabel = labels.read;

export async function createLabel(
  tx: Tx,
  principal: Principal,
  projectKey: string,
  input: Partial<LabelFields> & { name: string },
) {
  const color = (input.color ?? LABEL_DEFAULT_COLOR).toLowerCase();
  return labels.create(tx, principal, projectKey, { name: input.name, color, description: input.description ?? '' });
}

/** Renaming a label renames it on every task at once: tasks carry labels by reference. */
export async function updateLabel(tx: Tx, principal: Principal, id: number, changes: Partial<LabelFields>) {
  const normalized = { ...changes, color: changes.color?.toLowerCase() };
  return labels.update(tx, principal, id, (current) =>
    changedFields(current, normalized, ['name', 'color', 'description']),
  );
}

/** The label comes off every task that carries it, and is deleted, in one transaction. */
export async function deleteLabel(tx: Tx, principal: Principal, id: number, origin: ActionOrigin): Promise<void> {
  await labels.remove(tx, principal, id, origin);
}
