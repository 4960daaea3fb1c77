-- modules/events/events-stream.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- positionOfEvent
select "tx", "id", "occurred_at" from "event_outbox" where "event_id" = ? and "organization_id" = ?;
-- parameters: ["evt_0123456789abcdef0123456789abcdef",1]

-- startOfStream
select "tx", "id", "event_id" from "event_outbox" where "organization_id" = ? and "tx" < ? order by "tx" desc, "id" desc limit ?;
-- parameters: [1,9007199254740991,1]

-- largestEventId
select max("id") as "id" from "event_outbox";

-- readEventsAfter
select "e"."tx", "e"."id", "e"."event_id", "e"."type", "e"."organization_id", "e"."project_id", "e"."related_project_id", "e"."recipient_id", "e"."occurred_at", "e"."envelope", ? as "horizon" from "event_outbox" as "e" where ("e"."tx", "e"."id") > (?, ?) order by "e"."tx", "e"."id" limit ?;
-- parameters: [9007199254740991,0,99,200]
