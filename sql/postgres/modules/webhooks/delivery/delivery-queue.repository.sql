-- modules/webhooks/delivery/delivery-queue.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- leaseDueDeliveries
update "webhook_deliveries" set "locked_until" = $1, "lease_token" = $2 where "id" in (select "d"."id" from "webhook_deliveries" as "d" where "d"."status" = 'pending' and "d"."next_attempt_at" <= $3 and ("d"."locked_until" is null or "d"."locked_until" <= $4) and exists (select "e"."id" from "webhook_endpoints" as "e" where "e"."id" = "d"."endpoint_id" and "e"."enabled" = $5) and "d"."endpoint_id" not in ($6) order by "d"."next_attempt_at", "d"."id" limit $7 for update skip locked) and "status" = $8 and ("locked_until" is null or "locked_until" <= $9) returning "id", "attempts", "endpoint_id", "outbox_id", "event_id", "is_test";
-- parameters: ["2026-11-21T09:01:00.000Z","lease-1","2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z",1,4,50,"pending","2026-11-21T09:00:00.000Z"]

-- markUnfinishedAttemptsLost
update "webhook_attempts" set "finished_at" = $1, "error" = $2 where "delivery_id" in ($3, $4) and "finished_at" is null;
-- parameters: ["2026-11-21T09:00:00.000Z","lost",7,8]

-- insertAttempts
insert into "webhook_attempts" ("delivery_id", "number", "started_at", "finished_at", "duration_ms", "response_status", "error", "response_body") values ($1, $2, $3, $4, $5, $6, $7, $8), ($9, $10, $11, $12, $13, $14, $15, $16) returning "id", "delivery_id";
-- parameters: [7,1,"2026-11-21T09:00:00.000Z",null,null,null,null,null,8,3,"2026-11-21T09:00:00.000Z",null,null,null,null,null]

-- endpointTargets
select "id", "url", "format", "secret_ciphertext" from "webhook_endpoints" where "id" in ($1, $2);
-- parameters: [4,5]

-- outboxEnvelopes
select "id", "envelope" from "event_outbox" where "id" in ($1);
-- parameters: [9]

-- finishAttempt
update "webhook_attempts" set "finished_at" = $1, "duration_ms" = $2, "response_status" = $3, "error" = $4, "response_body" = $5 where "id" = $6;
-- parameters: ["2026-11-21T09:00:00.000Z",12,200,null,"ok",21]

-- rescheduleLeasedDelivery
update "webhook_deliveries" set "status" = $1, "attempts" = $2, "next_attempt_at" = $3, "locked_until" = $4, "lease_token" = $5, "response_status" = $6, "error" = $7, "delivered_at" = $8 where "id" = $9 and "lease_token" = $10;
-- parameters: ["pending",2,"2026-11-21T09:05:00.000Z",null,null,503,"HTTP 503",null,7,"lease-1"]

-- markLeasedDelivered
update "webhook_deliveries" set "status" = $1, "attempts" = $2, "next_attempt_at" = $3, "locked_until" = $4, "lease_token" = $5, "response_status" = $6, "error" = $7, "delivered_at" = $8 where "id" in ($9, $10) and "lease_token" = $11 returning "id";
-- parameters: ["delivered",1,null,null,null,200,null,"2026-11-21T09:00:00.000Z",7,8,"lease-1"]

-- resetFailureCounts
update "webhook_endpoints" set "consecutive_failures" = $1 where "id" in ($2) and "consecutive_failures" != $3;
-- parameters: [0,4,0]

-- countAbandonedDelivery
update "webhook_endpoints" set "consecutive_failures" = "consecutive_failures" + $1 where "id" = $2 returning "consecutive_failures", "enabled";
-- parameters: [1,4]
