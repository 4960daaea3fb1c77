-- modules/live/live.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- largestLiveEventId
select max("id") as "id" from "live_events";

-- currentPosition
select "tx", "id" from "live_events" where "tx" < ? order by "tx" desc, "id" desc limit ?;
-- parameters: [9007199254740991,1]

-- readLiveEvents
select "e"."tx", "e"."id", "e"."kind", "e"."action", "e"."task_key", "e"."version", "p"."key" as "project_key", ? as "horizon" from "live_events" as "e" inner join "projects" as "p" on "p"."id" = "e"."project_id" where ("e"."tx", "e"."id") > (?, ?) and "e"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)) order by "e"."tx", "e"."id" limit ?;
-- parameters: [9007199254740991,0,99,3,1,10,11,200]
