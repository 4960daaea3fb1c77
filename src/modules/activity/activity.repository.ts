import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { ActivitiesTable } from '../../db/schema.ts';

export type ActivityEntry = Omit<Insertable<ActivitiesTable>, 'id'>;

/** The insert of activity rows, for a caller that sends it with others (task-writes.repository.ts). */
export function activitiesInsert(db: Executor, entries: ActivityEntry[]) {
  return db.insertInto('activities').values(entries);
}

/** The one writer of a task's activity history; call it in the transaction of the change. */
export async function recordActivities(db: Executor, entries: ActivityEntry[]): Promise<void> {
  if (entries.length) await activitiesInsert(db, entries).execute();
}
