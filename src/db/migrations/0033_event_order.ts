import { sql } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * The event stream for tokens (docs/api/events-stream.md) reads the outbox in commit order.
 * On PostgreSQL ids are taken before commit, so they commit out of order: each row also
 * carries the id of the transaction that wrote it (`tx`), and readers go by (tx, id) and stop
 * at the oldest transaction still running, as the live stream does (migration 0014). SQLite has
 * one writer at a time, so its ids are already in commit order and `tx` stays 0.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('event_outbox')
    .addColumn('tx', 'bigint', (c) =>
      c.notNull().defaultTo(dialect === 'postgres' ? sql`(pg_current_xact_id()::text::bigint)` : 0),
    )
    .execute();
  await db.schema.createIndex('event_outbox_position_idx').on('event_outbox').columns(['tx', 'id']).execute();
}
