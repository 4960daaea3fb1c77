-- modules/live/live.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- largestLiveEventId
select max("id") as "id" from "live_events";

-- currentPosition
select "tx", "id" from "live_events" where "tx" < ? order by "tx" desc, "id" desc limit ?;
-- parameters: [9007199254740991,1]

-- isKnownPosition
select "id" from "live_events" where "tx" = ? and "id" = ? limit ?;
-- parameters: [0,99,1]
select "id" from "live_events" limit ?;
-- parameters: [1]

-- readLiveEvents
select "e"."tx", "e"."id", "e"."project_id", "e"."kind", "e"."action", "e"."task_key", "e"."version", "e"."recipient_id", "p"."key" as "project_key", ? as "horizon" from "live_events" as "e" left join "projects" as "p" on "p"."id" = "e"."project_id" where ("e"."tx", "e"."id") > (?, ?) order by "e"."tx", "e"."id" limit ?;
-- parameters: [9007199254740991,0,99,200]
