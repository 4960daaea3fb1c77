import type { AppContext } from '../../context.ts';
import { type Executor, isUniqueViolation } from '../../db/database.ts';
import { presentPage } from '../../db/present-page.ts';
import { type Tx, withSavepoint } from '../../db/unit-of-work.ts';
import type { ActionOrigin } from '../../events/record-event.ts';
import { ApiError, invalid } from '../../http/errors.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../auth/principal.ts';
import { projectFor } from '../../policy/index.ts';
import { visibleOne } from '../../policy/visible-one.ts';
import { deleteAndDetach } from './detach.ts';
import { nameTaken } from './planning.errors.ts';
import { presentSprint } from './planning.presenter.ts';
import * as repo from './planning.repository.ts';

export type SprintFields = repo.SprintValues;

const ORDERABLE = {
  id: 'sp.id',
  name: 'sp.name',
  start_date: 'start_date_sort',
  end_date: 'end_date_sort',
  state: 'sp.state',
  created_at: 'sp.created_at',
  updated_at: 'sp.updated_at',
};
const PLANNING = 'labels, milestones and sprints';

export async function listSprints(ctx: AppContext, principal: Principal, projectKey: string, filters: { state?: SprintFields['state'] }, page: PageRequest) {
  const project = await projectFor(ctx.db, principal, { key: projectKey });
  const query = repo.sprintsOfProject(ctx.db, principal, project.id, filters.state);
  return presentPage(query, page, { idColumn: 'sp.id', orderable: ORDERABLE, defaultOrdering: 'start_date' }, presentSprint);
}

const visibleSprint = visibleOne('Sprint', repo.findVisibleSprint, presentSprint);
export const getSprint = visibleSprint.read;

function checkDates(start: string | null, end: string | null): void {
  // YYYY-MM-DD strings compare like the dates they name.
  if (start !== null && end !== null && end < start) throw invalid({ end_date: 'must not be before start_date' });
}

function activeExists(active: { id: number; name: string }): ApiError {
  return new ApiError('ACTIVE_SPRINT_EXISTS', `Sprint "${active.name}" is already active. Complete it before starting another.`, {
    sprint: active.id,
  });
}

async function assertNoOtherActive(db: Executor, projectId: number, exceptId: number | null): Promise<void> {
  const active = await repo.findOtherActiveSprint(db, projectId, exceptId);
  if (active) throw activeExists(active);
}

/**
 * Runs a sprint write; a unique violation is either the name or the one-active-sprint index,
 * and the answer says which. The write runs in a savepoint so the reads that tell them apart
 * can still run in the unit of work.
 */
async function writeSprint<R>(tx: Tx, projectId: number, name: string, selfId: number | null, write: () => Promise<R>): Promise<R> {
  try {
    return await withSavepoint(tx, write);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    if (await repo.findSprintNamed(tx.db, projectId, name, selfId)) throw nameTaken('sprint', name);
    const active = await repo.findOtherActiveSprint(tx.db, projectId, selfId);
    throw active ? activeExists(active) : error;
  }
}

export async function createSprint(tx: Tx, principal: Principal, projectKey: string, input: Partial<SprintFields> & { name: string }) {
  const project = await projectFor(tx.db, principal, { key: projectKey }, 'project.contribute', PLANNING);
  const fields: SprintFields = {
    name: input.name,
    goal: input.goal ?? '',
    start_date: input.start_date ?? null,
    end_date: input.end_date ?? null,
    state: input.state ?? 'planned',
  };
  checkDates(fields.start_date, fields.end_date);
  if (fields.state === 'active') await assertNoOtherActive(tx.db, project.id, null);
  const id = await writeSprint(tx, project.id, fields.name, null, () => repo.insertSprint(tx.db, project.id, fields, tx.clock.nowIso()));
  return visibleSprint.read(tx, principal, id);
}

/** Any state change is allowed (start, complete, reopen) as long as at most one sprint is active. */
export async function updateSprint(tx: Tx, principal: Principal, id: number, changes: Partial<SprintFields>) {
  const current = await visibleSprint.find(tx, principal, id);
  await projectFor(tx.db, principal, { id: current.project_id }, 'project.contribute', PLANNING);
  const set: Partial<SprintFields> = {};
  for (const field of ['name', 'goal', 'start_date', 'end_date', 'state'] as const) {
    if (changes[field] !== undefined && changes[field] !== current[field]) Object.assign(set, { [field]: changes[field] });
  }
  if (Object.keys(set).length === 0) return presentSprint(current);
  checkDates(set.start_date !== undefined ? set.start_date : current.start_date, set.end_date !== undefined ? set.end_date : current.end_date);
  if (set.state === 'active') await assertNoOtherActive(tx.db, current.project_id, id);
  await writeSprint(tx, current.project_id, set.name ?? current.name, id, () => repo.updateSprintFields(tx.db, id, set, tx.clock.nowIso()));
  return visibleSprint.read(tx, principal, id);
}

/** Tasks in the sprint lose it (`sprint` becomes null) and the sprint is deleted, in one transaction. */
export async function deleteSprint(tx: Tx, principal: Principal, id: number, origin: ActionOrigin): Promise<void> {
  const current = await visibleSprint.find(tx, principal, id);
  await projectFor(tx.db, principal, { id: current.project_id }, 'project.contribute', PLANNING);
  await deleteAndDetach(tx, origin, { kind: 'sprint', id });
}
