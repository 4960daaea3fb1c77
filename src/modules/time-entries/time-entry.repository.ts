import type { Executor } from '../../db/database.ts';
import { insertWithTimestamps } from '../../db/insert-with-timestamps.ts';
import type { Principal } from '../../identity/principal.ts';
import { recordsOfTaskQueries } from '../tasks/records-of-task.repository.ts';
import { visibleTasks } from '../tasks/task.repository.ts';

/** Time entries with their task key, for pages and single reads. */
function selectEntries(db: Executor) {
  return db
    .selectFrom('time_entries as e')
    .innerJoin('tasks as t', 't.id', 'e.task_id')
    .select([
      'e.id',
      'e.task_id',
      't.key as task_key',
      'e.user_id',
      'e.minutes',
      'e.date',
      'e.note',
      'e.created_at',
      'e.updated_at',
    ]);
}

/** With the caller's role in the task's project: whether it may change the entry. */
function visibleEntries(db: Executor, principal: Principal) {
  return visibleTasks(db, principal)
    .innerJoin('time_entries as e', 'e.task_id', 't.id')
    .select(['e.id', 'e.task_id', 'e.user_id', 'p.id as project_id', 'pm.role']);
}

/** The orderings of a page of a task's records. */
const PAGING = {
  idColumn: 'e.id',
  orderable: { date: 'e.date', created_at: 'e.created_at', minutes: 'e.minutes' },
  defaultOrdering: 'date',
};

export const {
  ofTask: entriesOfTask,
  find: findEntry,
  findVisible: findVisibleEntry,
} = recordsOfTaskQueries('e', selectEntries, visibleEntries, PAGING);

export type EntryRow = NonNullable<Awaited<ReturnType<typeof findEntry>>>;

export function insertEntry(
  db: Executor,
  { at, ...values }: { task_id: number; user_id: number; minutes: number; date: string; note: string; at: string },
): Promise<number> {
  return insertWithTimestamps(db, 'time_entries', values, at);
}

export async function updateEntry(
  db: Executor,
  id: number,
  changes: { minutes?: number; date?: string; note?: string },
  at: string,
): Promise<void> {
  await db
    .updateTable('time_entries')
    .set({ ...changes, updated_at: at })
    .where('id', '=', id)
    .execute();
}

export async function deleteEntry(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('time_entries').where('id', '=', id).execute();
}
