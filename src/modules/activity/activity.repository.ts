import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { ActivitiesTable } from '../../db/schema.ts';

export type ActivityEntry = Omit<Insertable<ActivitiesTable>, 'id'>;

/** The one writer of a task's activity history; call it in the transaction of the change. */
export async function recordActivities(db: Executor, entries: ActivityEntry[]): Promise<void> {
  if (entries.length) await db.insertInto('activities').values(entries).execute();
}
