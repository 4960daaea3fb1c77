import { sql } from 'kysely';
import type { Dialect } from './database.ts';

/**
 * Tables read in commit order (live_events, event_outbox: migrations 0014 and 0033) carry the
 * writing transaction's id (`tx`) on PostgreSQL. Rows of transactions older than the oldest
 * one still running that could write them are final: no row can commit before them any more.
 * Newer rows may be visible already, but a row with a smaller (tx, id) can still commit, so a
 * reader must not move past them yet. SQLite commits one writer at a time in id order, so
 * every visible row is final.
 *
 * The running transactions are those of the statement's own snapshot (the one its rows are
 * read with), less those known to belong to another database of the server: transaction ids
 * are shared by the whole server, so a long write elsewhere would otherwise hold every reader
 * back, yet it can never write these tables. A transaction is known to be another database's
 * by its backend (pg_stat_activity) or as a prepared transaction; one not found there (it ended
 * since the snapshot, or runs in no database) still holds readers back, which only delays them
 * until the next read. With none left, the horizon is the snapshot's xmax: the snapshot lists
 * every transaction still running below it, and any other has an id at least as large.
 */
export const horizonOf = (dialect: Dialect) =>
  dialect === 'postgres'
    ? sql<number>`(SELECT coalesce(
        (SELECT min(x) FROM pg_snapshot_xip(s.snapshot) AS x
          WHERE x::xid NOT IN (
            SELECT backend_xid FROM pg_stat_activity
            WHERE backend_xid IS NOT NULL AND datname <> current_database()
            UNION ALL
            SELECT transaction FROM pg_prepared_xacts WHERE database <> current_database())),
        pg_snapshot_xmax(s.snapshot))::text::bigint
      FROM (SELECT pg_current_snapshot() AS snapshot) AS s)`
    : sql<number>`${Number.MAX_SAFE_INTEGER}`;
