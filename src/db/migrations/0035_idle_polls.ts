import { sql } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * The worker's polls, every 250 ms, read an index holding only the rows still to do, so an idle
 * poll reads next to nothing whatever the planner's statistics say. With the indexes on every
 * row, statistics gathered while most events were new made PostgreSQL walk the outbox's primary
 * key and test each row: 888 ms a poll over 300,000 events all fanned out. A partial
 * index is the cheapest path for the poll's condition and order on any statistics: it is
 * smaller than any other index that gives that order, and needs no filter.
 * (`event_outbox_unnotified_idx`, migration 0024, does the same for notifications.)
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema
    .createIndex('event_outbox_unfanned_idx')
    .on('event_outbox')
    .column('id')
    .where(sql.ref('fanned_out_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_pending_idx')
    .on('webhook_deliveries')
    .columns(['next_attempt_at', 'id'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
}
