-- modules/live/live.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- largestLiveEventId
select max("id") as "id" from "live_events";

-- currentPosition
select "tx", "id" from "live_events" where "tx" < (SELECT coalesce(
        (SELECT min(x) FROM pg_snapshot_xip(s.snapshot) AS x
          WHERE x::xid NOT IN (
            SELECT backend_xid FROM pg_stat_activity
            WHERE backend_xid IS NOT NULL AND datname <> current_database()
            UNION ALL
            SELECT transaction FROM pg_prepared_xacts WHERE database <> current_database())),
        pg_snapshot_xmax(s.snapshot))::text::bigint
      FROM (SELECT pg_current_snapshot() AS snapshot) AS s) order by "tx" desc, "id" desc limit $1;
-- parameters: [1]

-- isKnownPosition
select "id" from "live_events" where "tx" = $1 and "id" = $2 limit $3;
-- parameters: [0,99,1]
select "id" from "live_events" limit $1;
-- parameters: [1]

-- readLiveEvents
select "e"."tx", "e"."id", "e"."project_id", "e"."kind", "e"."action", "e"."task_key", "e"."version", "e"."recipient_id", "p"."key" as "project_key", (SELECT coalesce(
        (SELECT min(x) FROM pg_snapshot_xip(s.snapshot) AS x
          WHERE x::xid NOT IN (
            SELECT backend_xid FROM pg_stat_activity
            WHERE backend_xid IS NOT NULL AND datname <> current_database()
            UNION ALL
            SELECT transaction FROM pg_prepared_xacts WHERE database <> current_database())),
        pg_snapshot_xmax(s.snapshot))::text::bigint
      FROM (SELECT pg_current_snapshot() AS snapshot) AS s) as "horizon" from "live_events" as "e" left join "projects" as "p" on "p"."id" = "e"."project_id" where ("e"."tx", "e"."id") > ($1, $2) order by "e"."tx", "e"."id" limit $3;
-- parameters: [0,99,200]
