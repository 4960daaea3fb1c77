import type { AppContext } from '../../context.ts';
import { type Executor, isUniqueViolation } from '../../db/database.ts';
import { type Tx, withSavepoint } from '../../db/unit-of-work.ts';
import { type ActionOrigin, recordEvent } from '../../events/record-event.ts';
import { ApiError, invalid } from '../../http/errors.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { projectFor } from '../../policy/index.ts';
import { nameTaken } from './planning.errors.ts';
import { changedFields, type ItemWrites, planningItems } from './planning-items.ts';
import { presentSprint } from './planning.presenter.ts';
import * as repo from './planning.repository.ts';
import { lockTaskForWrite, writeTaskUpdate } from '../tasks/task-writes.ts';

export type SprintFields = repo.SprintValues;
type SprintJson = ReturnType<typeof presentSprint>;

export async function listSprints(
  ctx: AppContext,
  principal: Principal,
  projectKey: string,
  filters: { state?: SprintFields['state'] },
  page: PageRequest,
) {
  const project = await projectFor(ctx.db, principal, { key: projectKey });
  const { rows, pagination } = await repo.sprintsPage(ctx.db, principal, project.id, filters.state, page);
  return { data: rows.map((row) => presentSprint(row)), pagination };
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

/** sprint.started when a sprint becomes active, sprint.completed when it becomes completed; nothing otherwise. */
async function recordStateEvent(
  tx: Tx,
  principal: Principal,
  origin: ActionOrigin,
  sprint: SprintJson,
  state: SprintFields['state'] | undefined,
): Promise<void> {
  if (state !== 'active' && state !== 'completed') return;
  const row = await sprints.find(tx, principal, sprint.id);
  await recordEvent(tx.db, {
    type: state === 'active' ? 'sprint.started' : 'sprint.completed',
    origin,
    projectId: row.project_id,
    occurredAt: tx.clock.nowIso(),
    data: { sprint, project: { id: row.project_id, key: sprint.project } },
  });
}

export async function createSprint(
  tx: Tx,
  principal: Principal,
  projectKey: string,
  input: Partial<SprintFields> & { name: string },
  origin: ActionOrigin,
) {
  const state = input.state ?? 'planned';
  const sprint = await sprints.create(tx, principal, projectKey, {
    name: input.name,
    goal: input.goal ?? '',
    start_date: input.start_date ?? null,
    end_date: input.end_date ?? null,
    state,
  });
  await recordStateEvent(tx, principal, origin, sprint, state);
  return sprint;
}

/**
 * Any state change is allowed (start, complete, reopen) as long as at most one sprint is active.
 * Completing a sprint with `carry_over_to` moves its open tasks (status not in the done
 * category) into that sprint, each through the task write path (activity, change record, event).
 */
export async function updateSprint(
  tx: Tx,
  principal: Principal,
  id: number,
  changes: Partial<SprintFields> & { carry_over_to?: number },
  origin: ActionOrigin,
) {
  const { carry_over_to: target, ...fields } = changes;
  let set: Partial<SprintFields> = {};
  let projectId = 0;
  const sprint = await sprints.update(tx, principal, id, (current) => {
    projectId = current.project_id;
    set = changedFields(current, fields, ['name', 'goal', 'start_date', 'end_date', 'state']);
    return set;
  });
  if (target !== undefined) {
    if (set.state !== 'completed')
      throw invalid({ carry_over_to: 'only when the same change completes the sprint (state: completed)' });
    const next = await repo.findVisibleSprint(tx.db, principal, target);
    if (!next || next.project_id !== projectId || next.id === id || next.state === 'completed')
      throw invalid({ carry_over_to: `no planned or active sprint ${target} in this project` });
    for (const taskId of await repo.openTasksOfSprint(tx.db, id))
      await writeTaskUpdate(tx, origin, await lockTaskForWrite(tx, taskId), { sprint_id: target });
  }
  await recordStateEvent(tx, principal, origin, sprint, set.state);
  return sprint;
}

/** Tasks in the sprint lose it (`sprint` becomes null) and the sprint is deleted, in one transaction. */
export async function deleteSprint(tx: Tx, principal: Principal, id: number, origin: ActionOrigin): Promise<void> {
  await sprints.remove(tx, principal, id, origin);
}
