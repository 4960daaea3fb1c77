-- modules/live/live.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- largestLiveEventId
select max("id") as "id" from "live_events";

-- currentPosition
select "tx", "id" from "live_events" where "tx" < pg_snapshot_xmin(pg_current_snapshot())::text::bigint order by "tx" desc, "id" desc limit $1;
-- parameters: [1]

-- isKnownPosition
select "id" from "live_events" where "tx" = $1 and "id" = $2 limit $3;
-- parameters: [0,99,1]
select "id" from "live_events" limit $1;
-- parameters: [1]

-- readLiveEvents
select "e"."tx", "e"."id", "e"."project_id", "e"."kind", "e"."action", "e"."task_key", "e"."version", "p"."key" as "project_key", pg_snapshot_xmin(pg_current_snapshot())::text::bigint as "horizon" from "live_events" as "e" inner join "projects" as "p" on "p"."id" = "e"."project_id" where ("e"."tx", "e"."id") > ($1, $2) order by "e"."tx", "e"."id" limit $3;
-- parameters: [0,99,200]
