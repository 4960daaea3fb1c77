import type { InsertObject, Insertable } from 'kysely';
import type { Executor } from '../db/database.ts';
import type { Database, EventOutboxTable } from '../db/schema.ts';

export type OutboxRow = Insertable<EventOutboxTable>;

/**
 * The one writer of the event outbox (src/events/record-event.ts builds the rows). Rows are
 * inserted in the order given, so their ids keep the order the events happened in. Returns the
 * insert for a caller that sends it with others (task-writes.repository.ts, whose rows read
 * `task_change_id` from the change's insert, so values may be expressions).
 */
export function outboxInsert(db: Executor, rows: Array<InsertObject<Database, 'event_outbox'>>) {
  return db.insertInto('event_outbox').values(rows);
}

export async function insertOutboxEvent(db: Executor, row: OutboxRow): Promise<void> {
  await outboxInsert(db, [row]).execute();
}
