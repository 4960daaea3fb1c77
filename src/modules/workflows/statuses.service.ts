import { isForeignKeyViolation, isUniqueViolation, type Executor } from '../../db/database.ts';
import type { StatusCategory } from '../../db/schema.ts';
import { type Tx, withSavepoint } from '../../db/unit-of-work.ts';
import { ApiError } from '../../http/errors.ts';
import type { Principal } from '../../identity/principal.ts';
import { projectFor } from '../../policy/index.ts';
import { visibleOne } from '../../policy/visible-one.ts';
import { visiblePages } from '../../policy/visible-pages.ts';
import { lockProject } from '../projects/projects.repository.ts';
import { changedFields, hasChanges, recordAudit } from '../audit/record-audit.ts';
import * as repo from './statuses.repository.ts';
import { presentStatus, type StatusJson } from './workflows.presenter.ts';

const CONFIGURATION = 'statuses, transitions and workflows';

const nameTaken = (name: string) =>
  new ApiError('ALREADY_EXISTS', `The project already has a status named "${name}".`, { field: 'name' });

export const listStatuses = visiblePages(repo.statusesPage, presentStatus);

const visibleStatus = visibleOne('Status', repo.findVisibleStatus, presentStatus);
export const getStatus = visibleStatus.read;

export async function createStatus(
  tx: Tx,
  principal: Principal,
  input: { project: number; name: string; category: StatusCategory; position?: number },
): Promise<StatusJson> {
  const project = await projectFor(tx.db, principal, { id: input.project }, 'project.administer', CONFIGURATION);
  const now = tx.clock.nowIso();
  await lockProject(tx.db, tx.dialect, project.id);
  const positions = await repo.statusPositions(tx.db, project.id);
  const order = [...positions.keys()];
  let id: number;
  try {
    id = await repo.insertStatus(tx.db, {
      project_id: project.id,
      name: input.name,
      category: input.category,
      position: order.length,
      at: now,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
  positions.set(id, order.length);
  order.splice(Math.min(input.position ?? order.length, order.length), 0, id);
  await repo.writeStatusPositions(tx.db, order, positions, now);
  const created = await visibleStatus.read(tx, principal, id);
  await recordAudit(tx, {
    organizationId: principal.organizationId,
    actor: principal,
    action: 'status.created',
    target: { type: 'status', id, label: created.name },
    projectId: project.id,
    after: { name: created.name, category: created.category, position: created.position },
  });
  return created;
}

/** Renaming is safe: tasks reference the status by id, and show its current name. */
export async function updateStatus(
  tx: Tx,
  principal: Principal,
  id: number,
  changes: { name?: string; category?: StatusCategory },
) {
  const current = await visibleStatus.find(tx, principal, id);
  await projectFor(tx.db, principal, { id: current.project }, 'project.administer', CONFIGURATION);
  const set: { name?: string; category?: StatusCategory } = {};
  if (changes.name !== undefined && changes.name !== current.name) set.name = changes.name;
  if (changes.category !== undefined && changes.category !== current.category) set.category = changes.category;
  if (Object.keys(set).length === 0) return presentStatus(current);
  const now = tx.clock.nowIso();
  try {
    await repo.updateStatusFields(tx.db, id, set, now);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(changes.name ?? current.name);
    throw error;
  }
  if (set.name !== undefined)
    await repo.recordStatusRename(tx.db, {
      status_id: id,
      from_name: current.name,
      to_name: set.name,
      renamed_at: now,
    });
  await recordAudit(tx, {
    organizationId: principal.organizationId,
    actor: principal,
    action: 'status.updated',
    target: { type: 'status', id, label: set.name ?? current.name },
    projectId: current.project,
    ...changedFields({ name: current.name, category: current.category }, set),
  });
  return visibleStatus.read(tx, principal, id);
}

async function inUse(db: Executor, statusId: number): Promise<ApiError | undefined> {
  const taskCount = await repo.countTasksInStatus(db, statusId);
  if (taskCount === 0) return undefined;
  return new ApiError('STATUS_IN_USE', `${taskCount} task(s) are in this status. Move them to another status first.`, {
    task_count: taskCount,
  });
}

/**
 * A status that tasks reference is refused (409 STATUS_IN_USE), never cascaded. An
 * unreferenced status goes together with every transition into or out of it, and the
 * remaining statuses close the gap in board order.
 */
export async function deleteStatus(tx: Tx, principal: Principal, id: number): Promise<void> {
  const current = await visibleStatus.find(tx, principal, id);
  const project = await projectFor(tx.db, principal, { id: current.project }, 'project.administer', CONFIGURATION);
  await lockProject(tx.db, tx.dialect, project.id);
  if ((await repo.defaultStatusOf(tx.db, project.id)) === id) {
    throw new ApiError(
      'STATUS_IS_DEFAULT',
      'New tasks start in this status. Make another status the project default first.',
      { status: id },
    );
  }
  const refused = await inUse(tx.db, id);
  if (refused) throw refused;
  try {
    await withSavepoint(tx, () => repo.deleteStatusWithTransitions(tx.db, id));
  } catch (error) {
    // A task moved into the status after the count: the foreign key refuses the delete.
    if (isForeignKeyViolation(error)) throw (await inUse(tx.db, id)) ?? error;
    throw error;
  }
  const positions = await repo.statusPositions(tx.db, project.id);
  await repo.writeStatusPositions(tx.db, [...positions.keys()], positions, tx.clock.nowIso());
  await recordAudit(tx, {
    organizationId: principal.organizationId,
    actor: principal,
    action: 'status.deleted',
    target: { type: 'status', id, label: current.name },
    projectId: project.id,
    before: { name: current.name, category: current.category },
  });
}

/**
 * Reordering rewrites board positions only; no task row is read or written. The body must
 * name every status of the project exactly once, so a client working from a stale list is
 * told instead of silently producing a mixed order.
 */
export async function reorderStatuses(
  tx: Tx,
  principal: Principal,
  input: { project: number; statuses: number[] },
): Promise<StatusJson[]> {
  const project = await projectFor(tx.db, principal, { id: input.project }, 'project.administer', CONFIGURATION);
  await lockProject(tx.db, tx.dialect, project.id);
  const positions = await repo.statusPositions(tx.db, project.id);
  const missing = [...positions.keys()].filter((id) => !input.statuses.includes(id));
  const unknown = input.statuses.filter((id) => !positions.has(id));
  if (missing.length || unknown.length) {
    throw new ApiError('VALIDATION_ERROR', 'statuses must list every status of the project exactly once.', {
      fields: { statuses: 'must list every status id of the project exactly once' },
      missing,
      unknown,
    });
  }
  const before = (await repo.statusesInBoardOrder(tx.db, principal, project.id)).map((s) => s.name);
  await repo.writeStatusPositions(tx.db, input.statuses, positions, tx.clock.nowIso());
  const after = (await repo.statusesInBoardOrder(tx.db, principal, project.id)).map(presentStatus);
  const changes = changedFields({ order: before }, { order: after.map((s) => s.name) });
  if (hasChanges(changes))
    await recordAudit(tx, {
      organizationId: principal.organizationId,
      actor: principal,
      action: 'status.reordered',
      target: { type: 'project', id: project.id, label: `${project.key} ${project.name}` },
      projectId: project.id,
      ...changes,
    });
  return after;
}
