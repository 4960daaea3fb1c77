-- modules/events/events-stream.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- positionOfEvent
select "tx", "id", "occurred_at" from "event_outbox" where "event_id" = $1 and "organization_id" = $2;
-- parameters: ["evt_0123456789abcdef0123456789abcdef",1]

-- startOfStream
select "tx", "id", "event_id" from "event_outbox" where "organization_id" = $1 and "tx" < (SELECT coalesce(
        (SELECT min(x) FROM pg_snapshot_xip(s.snapshot) AS x
          WHERE x::xid NOT IN (
            SELECT backend_xid FROM pg_stat_activity
            WHERE backend_xid IS NOT NULL AND datname <> current_database()
            UNION ALL
            SELECT transaction FROM pg_prepared_xacts WHERE database <> current_database())),
        pg_snapshot_xmax(s.snapshot))::text::bigint
      FROM (SELECT pg_current_snapshot() AS snapshot) AS s) order by "tx" desc, "id" desc limit $2;
-- parameters: [1,1]

-- largestEventId
select max("id") as "id" from "event_outbox";

-- readEventsAfter
select "e"."tx", "e"."id", "e"."event_id", "e"."type", "e"."organization_id", "e"."project_id", "e"."related_project_id", "e"."recipient_id", "e"."occurred_at", "e"."envelope", (SELECT coalesce(
        (SELECT min(x) FROM pg_snapshot_xip(s.snapshot) AS x
          WHERE x::xid NOT IN (
            SELECT backend_xid FROM pg_stat_activity
            WHERE backend_xid IS NOT NULL AND datname <> current_database()
            UNION ALL
            SELECT transaction FROM pg_prepared_xacts WHERE database <> current_database())),
        pg_snapshot_xmax(s.snapshot))::text::bigint
      FROM (SELECT pg_current_snapshot() AS snapshot) AS s) as "horizon" from "event_outbox" as "e" where ("e"."tx", "e"."id") > ($1, $2) order by "e"."tx", "e"."id" limit $3;
-- parameters: [0,99,200]
