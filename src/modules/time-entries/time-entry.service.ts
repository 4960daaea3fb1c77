import type { AppContext } from '../../context.ts';
import { type BeforeCommit, transactionWith } from '../../db/before-commit.ts';
import type { Executor } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import { type PageRequest } from '../../http/pagination.ts';
import { paginate } from '../../db/paginate.ts';
import type { Principal } from '../auth/principal.ts';
import { authorize, visibleProjects } from '../../policy/index.ts';
import { applyRecordChange } from '../tasks/task-writes.ts';
import { type Caller, visibleTask, writableTask } from '../tasks/task.service.ts';
import type { TimeEntryCreateInput, TimeEntryJson, TimeEntryUpdateInput } from './time-entry.schemas.ts';

/**
 * Time logged on a task, always by and for the token's account; only that account changes or
 * deletes its entries. Every write goes through applyRecordChange, so the task's
 * `time_spent_minutes` moves together with its version, change record and task.updated event.
 */
function selectEntries(db: Executor) {
  return db
    .selectFrom('time_entries as e')
    .innerJoin('tasks as t', 't.id', 'e.task_id')
    .select(['e.id', 'e.task_id', 't.key as task_key', 'e.user_id', 'e.minutes', 'e.date', 'e.note', 'e.created_at', 'e.updated_at']);
}

type EntryRow = Awaited<ReturnType<ReturnType<typeof selectEntries>['executeTakeFirstOrThrow']>>;

function present(row: EntryRow): TimeEntryJson {
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
  const row = await selectEntries(db).where('e.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Time entry');
  return present(row);
}

async function visibleEntry(ctx: AppContext, principal: Principal, id: number) {
  const found = await visibleProjects(ctx.db, principal)
    .innerJoin('tasks as t', 't.project_id', 'p.id')
    .innerJoin('time_entries as e', 'e.task_id', 't.id')
    .select(['e.id', 'e.task_id', 'e.user_id', 'p.id as project_id', 'pm.role'])
    .where('e.id', '=', id)
    .executeTakeFirst();
  if (!found) throw notFound('Time entry');
  return found;
}

/** Visible, and the caller may change it: project writers only, and only their own entries. */
async function ownEntry(ctx: AppContext, principal: Principal, id: number) {
  const found = await visibleEntry(ctx, principal, id);
  authorize(principal, 'item.edit', { kind: 'item', project: { id: found.project_id, role: found.role }, authorId: found.user_id }, 'the time entry');
  return found;
}

export async function listTimeEntries(ctx: AppContext, principal: Principal, taskKey: string, page: PageRequest) {
  const task = await visibleTask(ctx, principal, taskKey);
  const { rows, pagination } = await paginate(selectEntries(ctx.db).where('e.task_id', '=', task.id), page, {
    idColumn: 'e.id',
    orderable: { date: 'e.date', created_at: 'e.created_at', minutes: 'e.minutes' },
    defaultOrdering: 'date',
  });
  return { data: rows.map(present), pagination };
}

export async function getTimeEntry(ctx: AppContext, principal: Principal, id: number): Promise<TimeEntryJson> {
  await visibleEntry(ctx, principal, id);
  return loadEntry(ctx.db, id);
}

export async function createTimeEntry(
  ctx: AppContext,
  caller: Caller,
  taskKey: string,
  input: TimeEntryCreateInput,
  beforeCommit?: BeforeCommit<TimeEntryJson>,
): Promise<TimeEntryJson> {
  const task = await writableTask(ctx, caller.principal, taskKey);
  return transactionWith(
    ctx.db,
    (trx) =>
      applyRecordChange(trx, ctx, caller.origin, task.id, async () => {
        const now = ctx.clock.nowIso();
        const { id } = await trx
          .insertInto('time_entries')
          .values({ task_id: task.id, user_id: caller.principal.userId, minutes: input.minutes, date: input.date, note: input.note ?? '', created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        return loadEntry(trx, id);
      }),
    beforeCommit,
  );
}

export async function updateTimeEntry(ctx: AppContext, caller: Caller, id: number, input: TimeEntryUpdateInput): Promise<TimeEntryJson> {
  const entry = await ownEntry(ctx, caller.principal, id);
  return ctx.db.transaction().execute((trx) =>
    applyRecordChange(trx, ctx, caller.origin, entry.task_id, async () => {
      const current = await loadEntry(trx, id);
      const changed = (['minutes', 'date', 'note'] as const).some((field) => input[field] !== undefined && input[field] !== current[field]);
      if (!changed) return current;
      await trx
        .updateTable('time_entries')
        .set({ ...input, updated_at: ctx.clock.nowIso() })
        .where('id', '=', id)
        .execute();
      return loadEntry(trx, id);
    }),
  );
}

export async function deleteTimeEntry(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  const entry = await ownEntry(ctx, caller.principal, id);
  await ctx.db.transaction().execute((trx) =>
    applyRecordChange(trx, ctx, caller.origin, entry.task_id, async () => {
      await trx.deleteFrom('time_entries').where('id', '=', id).execute();
    }),
  );
}
