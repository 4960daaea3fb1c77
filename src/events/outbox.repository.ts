import type { Insertable } from 'kysely';
import type { Executor } from '../db/database.ts';
import type { EventOutboxTable } from '../db/schema.ts';

/** The one writer of the event outbox (src/events/record-event.ts builds the row). */
export async function insertOutboxEvent(db: Executor, row: Insertable<EventOutboxTable>): Promise<void> {
  await db.insertInto('event_outbox').values(row).execute();
}
