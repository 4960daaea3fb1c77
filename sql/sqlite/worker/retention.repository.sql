-- worker/retention.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- deleteFinishedDeliveriesBefore
delete from "webhook_deliveries" where "status" in (?, ?) and "created_at" < ?;
-- parameters: ["delivered","failed","2026-10-22T09:00:00.000Z"]

-- deleteUnreferencedEventsBefore
delete from "event_outbox" where "fanned_out_at" < ? and not exists (select "d"."id" from "webhook_deliveries" as "d" where "d"."outbox_id" = "event_outbox"."id");
-- parameters: ["2026-10-22T09:00:00.000Z"]

-- deletePendingDeliveriesOfEndpointsDisabledBefore
delete from "webhook_deliveries" where "status" = ? and "endpoint_id" in (select "id" from "webhook_endpoints" where "enabled" = ? and "updated_at" < ?);
-- parameters: ["pending",0,"2026-10-22T09:00:00.000Z"]

-- deleteSupersededChangesBefore
delete from "task_changes" where "id" in (select "c"."id" from "task_changes" as "c" where "c"."changed_at" < ? and exists (select "later"."id" from "task_changes" as "later" where "later"."task_id" = "c"."task_id" and "later"."id" > "c"."id") order by "c"."id" limit ?);
-- parameters: ["2026-08-23T09:00:00.000000Z",2000]

-- deleteDeletionRecordsBefore
delete from "task_changes" where "id" in (select "id" from "task_changes" where "action" = ? and "changed_at" < ? order by "id" limit ?);
-- parameters: ["deleted","2026-08-23T09:00:00.000000Z",2000]

-- hasDeletionRecordsBefore
select "id" from "task_changes" where "action" = ? and "changed_at" < ? limit ?;
-- parameters: ["deleted","2026-08-23T09:00:00.000000Z",1]

-- advanceHorizon
insert into "retention_horizons" ("name", "purged_before", "generation") values (?, ?, ?) on conflict ("name") do update set "purged_before" = "excluded"."purged_before", "generation" = "retention_horizons"."generation" + ?;
-- parameters: ["task_changes","2026-08-23T09:00:00.000000Z",1,1]

-- markLiveEvents
select max("id") as "id" from "live_events";

-- liveEventsMarkedBefore
select max("last_id") as "last_id" from "live_event_marks" where "marked_at" < ?;
-- parameters: ["2026-11-20T09:00:00.000000Z"]

-- deleteLiveEventsThrough
delete from "live_events" where "id" in (select "id" from "live_events" where "id" <= ? order by "id" limit ?);
-- parameters: [1041,2000]

-- deleteLiveEventMarksThrough
delete from "live_event_marks" where "last_id" <= ?;
-- parameters: [1041]
