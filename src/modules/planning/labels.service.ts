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
import { presentLabel } from './planning.presenter.ts';
import * as repo from './planning.repository.ts';
import { LABEL_DEFAULT_COLOR } from './planning.schemas.ts';

const ORDERABLE = { id: 'l.id', name: 'l.name', created_at: 'l.created_at', updated_at: 'l.updated_at' };
const PLANNING = 'labels, milestones and sprints';

export type LabelFields = repo.LabelValues;

export async function listLabels(ctx: AppContext, principal: Principal, projectKey: string, page: PageRequest) {
  const project = await projectFor(ctx.db, principal, { key: projectKey });
  const query = repo.labelsOfProject(ctx.db, principal, project.id);
  return presentPage(query, page, { idColumn: 'l.id', orderable: ORDERABLE, defaultOrdering: 'name' }, presentLabel);
}

const visibleLabel = visibleOne('Label', repo.findVisibleLabel, presentLabel);
export const getLabel = visibleLabel.read;

export async function createLabel(tx: Tx, principal: Principal, projectKey: string, input: Partial<LabelFields> & { name: string }) {
  const project = await projectFor(tx.db, principal, { key: projectKey }, 'project.contribute', PLANNING);
  const values = { name: input.name, color: (input.color ?? LABEL_DEFAULT_COLOR).toLowerCase(), description: input.description ?? '' };
  let id: number;
  try {
    id = await repo.insertLabel(tx.db, project.id, values, tx.clock.nowIso());
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken('label', input.name);
    throw error;
  }
  return visibleLabel.read(tx, principal, id);
}

/** Renaming a label renames it on every task at once: tasks carry labels by reference. */
export async function updateLabel(tx: Tx, principal: Principal, id: number, changes: Partial<LabelFields>) {
  const current = await visibleLabel.find(tx, principal, id);
  await projectFor(tx.db, principal, { id: current.project_id }, 'project.contribute', PLANNING);
  const set: Partial<LabelFields> = {};
  if (changes.name !== undefined && changes.name !== current.name) set.name = changes.name;
  if (changes.color !== undefined && changes.color.toLowerCase() !== current.color) set.color = changes.color.toLowerCase();
  if (changes.description !== undefined && changes.description !== current.description) set.description = changes.description;
  if (Object.keys(set).length === 0) return presentLabel(current);
  try {
    await repo.updateLabelFields(tx.db, id, set, tx.clock.nowIso());
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken('label', changes.name ?? current.name);
    throw error;
  }
  return visibleLabel.read(tx, principal, id);
}

/** The label comes off every task that carries it, and is deleted, in one transaction. */
export async function deleteLabel(tx: Tx, principal: Principal, id: number, origin: ActionOrigin): Promise<void> {
  const current = await visibleLabel.find(tx, principal, id);
  await projectFor(tx.db, principal, { id: current.project_id }, 'project.contribute', PLANNING);
  await deleteAndDetach(tx, origin, { kind: 'label', id });
}
