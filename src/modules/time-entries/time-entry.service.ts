import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { presentPage } from '../../db/present-page.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { foundOr404 } from '../../http/errors.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../auth/principal.ts';
import { authorize } from '../../policy/index.ts';
import { applyRecordChange } from '../tasks/task-writes.ts';
import { type Caller, visibleTask, writableTask } from '../tasks/task.service.ts';
import * as repo from './time-entry.repository.ts';
import type { TimeEntryCreateInput, TimeEntryJson, TimeEntryUpdateInput } from './time-entry.schemas.ts';

/**
 * Time logged on a task, always by and for the token's account; only that account changes or
 * deletes its entries. Every write goes through applyRecordChange, so the task's
 * `time_spent_minutes` moves together with its version, change record and task.updated event.
 */
function present(row: repo.EntryRow): TimeEntryJson {
  return {
    id: row.id,
    task: row.task_key,
    user: row.user_id,
    minutes: row.minutes,
    date: row.date,
    note: row.note,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function loadEntry(db: Executor, id: number): Promise<TimeEntryJson> {
  const row = await foundOr404(repo.findEntry(db, id), 'Time entry');
  return present(row);
}

async function visibleEntry(ctx: AppContext, principal: Principal, id: number) {
  return foundOr404(repo.findVisibleEntry(ctx.db, principal, id), 'Time entry');
}

/** Visible, and the caller may change it: project writers only, and only their own entries. */
async function ownEntry(ctx: AppContext, principal: Principal, id: number) {
  const found = await visibleEntry(ctx, principal, id);
  authorize(principal, 'item.edit', { kind: 'item', project: { id: found.project_id, role: found.role }, authorId: found.user_id }, 'the time entry');
  return found;
}

export async function listTimeEntries(ctx: AppContext, principal: Principal, taskKey: string, page: PageRequest) {
  const task = await visibleTask(ctx, principal, taskKey);
  return presentPage(repo.entriesOfTask(ctx.db, task.id), page, {
    idColumn: 'e.id',
    orderable: { date: 'e.date', created_at: 'e.created_at', minutes: 'e.minutes' },
    defaultOrdering: 'date',
  }, present);
}

export async function getTimeEntry(ctx: AppContext, principal: Principal, id: number): Promise<TimeEntryJson> {
  await visibleEntry(ctx, principal, id);
  return loadEntry(ctx.db, id);
}

export async function createTimeEntry(tx: Tx, caller: Caller, taskKey: string, input: TimeEntryCreateInput): Promise<TimeEntryJson> {
  const task = await writableTask(tx, caller.principal, taskKey);
  return applyRecordChange(tx.db, tx, caller.origin, task.id, async () => {
    const id = await repo.insertEntry(tx.db, {
      task_id: task.id,
      user_id: caller.principal.userId,
      minutes: input.minutes,
      date: input.date,
      note: input.note ?? '',
      at: tx.clock.nowIso(),
    });
    return loadEntry(tx.db, id);
  });
}

export async function updateTimeEntry(tx: Tx, caller: Caller, id: number, input: TimeEntryUpdateInput): Promise<TimeEntryJson> {
  const entry = await ownEntry(tx, caller.principal, id);
  return applyRecordChange(tx.db, tx, caller.origin, entry.task_id, async () => {
    const current = await loadEntry(tx.db, id);
    const changed = (['minutes', 'date', 'note'] as const).some((field) => input[field] !== undefined && input[field] !== current[field]);
    if (!changed) return current;
    await repo.updateEntry(tx.db, id, input, tx.clock.nowIso());
    return loadEntry(tx.db, id);
  });
}

export async function deleteTimeEntry(tx: Tx, caller: Caller, id: number): Promise<void> {
  const entry = await ownEntry(tx, caller.principal, id);
  await applyRecordChange(tx.db, tx, caller.origin, entry.task_id, () => repo.deleteEntry(tx.db, id));
}
