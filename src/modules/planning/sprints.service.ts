import type { AppContext } from '../../context.ts';
import { type Executor, isUniqueViolation } from '../../db/database.ts';
import { presentPage } from '../../db/present-page.ts';
import { type Tx, withSavepoint } from '../../db/unit-of-work.ts';
import type { ActionOrigin } from '../../events/record-event.ts';
import { ApiError, invalid } from '../../http/errors.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../auth/principal.ts';
import { projectFor } from '../../policy/index.ts';
import { nameTaken } from './planning.errors.ts';
import { changedFields, type ItemWrites, orderableBy, planningItems } from './planning-items.ts';
import { presentSprint } from './planning.presenter.ts';
import * as repo from './planning.repository.ts';

export type SprintFields = repo.SprintValues;

const ORDERABLE = orderableBy('sp', { start_date: 'start_date_sort', end_date: 'end_date_sort', state: 'sp.state' });

export async function listSprints(
  ctx: AppContext,
  principal: Principal,
  projectKey: string,
  filters: { state?: SprintFields['state'] },
  page: PageRequest,
) {
  const project = await projectFor(ctx.db, principal, { key: projectKey });
  const query = repo.sprintsOfProject(ctx.db, principal, project.id, filters.state);
  return presentPage(
    query,
    page,
    { idColumn: 'sp.id', orderable: ORDERABLE, defaultOrdering: 'start_date' },
    presentSprint,
  );
}

function checkDates(start: string | null, end: string | null): void {
  // YYYY-MM-DD strings compare like the dates they name.
  if (start !== null && end !== null && end < start) throw invalid({ end_date: 'must not be before start_date' });
}

function activeExists(active: { id: number; name: string }): ApiError {
  return new ApiError(
    'ACTIVE_SPRINT_EXISTS',
    `Sprint "${active.name}" is already active. Complete it before starting another.`,
    {
      sprint: active.id,
    },
  );
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
async function writeSprint<R>(
  tx: Tx,
  projectId: number,
  name: string,
  selfId: number | null,
  write: () => Promise<R>,
): Promise<R> {
  try {
    return await withSavepoint(tx, write);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    if (await repo.findSprintNamed(tx.db, projectId, name, selfId)) throw nameTaken('sprint', name);
    const active = await repo.findOtherActiveSprint(tx.db, projectId, selfId);
    throw active ? activeExists(active) : error;
  }
}

/** A sprint's dates are checked and a second active sprint refused before it is written. */
const sprintWrites: ItemWrites<repo.SprintRow, SprintFields> = {
  async insert(tx, projectId, fields) {
    checkDates(fields.start_date, fields.end_date);
    if (fields.state === 'active') await assertNoOtherActive(tx.db, projectId, null);
    return writeSprint(tx, projectId, fields.name, null, () =>
      repo.insertSprint(tx.db, projectId, fields, tx.clock.nowIso()),
    );
  },
  async update(tx, current, set) {
    checkDates(
      set.start_date !== undefined ? set.start_date : current.start_date,
      set.end_date !== undefined ? set.end_date : current.end_date,
    );
    if (set.state === 'active') await assertNoOtherActive(tx.db, current.project_id, current.id);
    const write = () => repo.updateSprintFields(tx.db, current.id, set, tx.clock.nowIso());
    await writeSprint(tx, current.project_id, set.name ?? current.name, current.id, write);
  },
};

const sprints = planningItems('sprint', repo.findVisibleSprint, presentSprint, sprintWrites);
export const getSprint = sprints.read;

export async function createSprint(
  tx: Tx,
  principal: Principal,
  projectKey: string,
  input: Partial<SprintFields> & { name: string },
) {
  return sprints.create(tx, principal, projectKey, {
    name: input.name,
    goal: input.goal ?? '',
    start_date: input.start_date ?? null,
    end_date: input.end_date ?? null,
    state: input.state ?? 'planned',
  });
}

/** Any state change is allowed (start, complete, reopen) as long as at most one sprint is active. */
export async function updateSprint(tx: Tx, principal: Principal, id: number, changes: Partial<SprintFields>) {
  return sprints.update(tx, principal, id, (current) =>
    changedFields(current, changes, ['name', 'goal', 'start_date', 'end_date', 'state']),
  );
}

/** Tasks in the sprint lose it (`sprint` becomes null) and the sprint is deleted, in one transaction. */
export async function deleteSprint(tx: Tx, principal: Principal, id: number, origin: ActionOrigin): Promise<void> {
  await sprints.remove(tx, principal, id, origin);
}
