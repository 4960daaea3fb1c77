import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import type { Principal } from '../../identity/principal.ts';
import { authorize } from '../../policy/index.ts';
import { writeTaskRecord } from '../tasks/task-writes.ts';
import { recordsOfTask } from '../tasks/records-of-task.ts';
import type { Caller } from '../../identity/caller.ts';
import { writableTask } from '../tasks/task.service.ts';
import * as repo from './time-entry.repository.ts';
import type { TimeEntryCreateInput, TimeEntryJson, TimeEntryUpdateInput } from './time-entry.schemas.ts';

/**
 * Time logged on a task, always by and for the token's account; only that account changes or
 * deletes its entries. Every write goes through writeTaskRecord, so the task's
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

const QUERIES = { ofTask: repo.entriesOfTask, find: repo.findEntry, findVisible: repo.findVisibleEntry };
const records = recordsOfTask('Time entry', QUERIES, present);

export const listTimeEntries = records.list;
export const getTimeEntry = records.get;

/** Visible, and the caller may change it: project writers only, and only their own entries. */
async function ownEntry(ctx: AppContext, principal: Principal, id: number) {
  const found = await records.visible(ctx, principal, id);
  authorize(
    principal,
    'item.edit',
    { kind: 'item', project: { id: found.project_id, role: found.role }, authorId: found.user_id },
    'the time entry',
  );
  return found;
}

export async function createTimeEntry(
  tx: Tx,
  caller: Caller,
  taskKey: string,
  input: TimeEntryCreateInput,
): Promise<TimeEntryJson> {
  const task = await writableTask(tx, caller.principal, taskKey);
  return writeTaskRecord(tx, caller.origin, task.id, async () => {
    const id = await repo.insertEntry(tx.db, {
      task_id: task.id,
      user_id: caller.principal.userId,
      minutes: input.minutes,
      date: input.date,
      note: input.note ?? '',
      at: tx.clock.nowIso(),
    });
    return records.load(tx.db, id);
  });
}

export async function updateTimeEntry(
  tx: Tx,
  caller: Caller,
  id: number,
  input: TimeEntryUpdateInput,
): Promise<TimeEntryJson> {
  const entry = await ownEntry(tx, caller.principal, id);
  return writeTaskRecord(tx, caller.origin, entry.task_id, async () => {
    const current = await records.load(tx.db, id);
    const changed = (['minutes', 'date', 'note'] as const).some(
      (field) => input[field] !== undefined && input[field] !== current[field],
    );
    if (!changed) return current;
    await repo.updateEntry(tx.db, id, input, tx.clock.nowIso());
    return records.load(tx.db, id);
  });
}

export async function deleteTimeEntry(tx: Tx, caller: Caller, id: number): Promise<void> {
  const entry = await ownEntry(tx, caller.principal, id);
  await writeTaskRecord(tx, caller.origin, entry.task_id, () => repo.deleteEntry(tx.db, id));
}
