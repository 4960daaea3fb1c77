-- worker/retention.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- deleteFinishedDeliveriesBefore
delete from "webhook_deliveries" where "status" in (?, ?) and "created_at" < ?;
-- parameters: ["delivered","failed","2026-10-22T09:00:00.000Z"]

-- deleteUnreferencedEventsBefore
delete from "event_outbox" where "fanned_out_at" < ? and not exists (select "d"."id" from "webhook_deliveries" as "d" where "d"."outbox_id" = "event_outbox"."id");
-- parameters: ["2026-10-22T09:00:00.000Z"]
