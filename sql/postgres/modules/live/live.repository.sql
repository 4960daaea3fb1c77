-- modules/live/live.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- largestLiveEventId
select max("id") as "id" from "live_events";

-- currentPosition
select "tx", "id" from "live_events" where "tx" < pg_snapshot_xmin(pg_current_snapshot())::text::bigint order by "tx" desc, "id" desc limit $1;
-- parameters: [1]

-- readLiveEvents
select "e"."tx", "e"."id", "e"."kind", "e"."action", "e"."task_key", "e"."version", "p"."key" as "project_key", pg_snapshot_xmin(pg_current_snapshot())::text::bigint as "horizon" from "live_events" as "e" inner join "projects" as "p" on "p"."id" = "e"."project_id" where ("e"."tx", "e"."id") > ($1, $2) and "e"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $3 where "p"."organization_id" = $4 and "p"."id" in ($5, $6)) order by "e"."tx", "e"."id" limit $7;
-- parameters: [0,99,3,1,10,11,200]
