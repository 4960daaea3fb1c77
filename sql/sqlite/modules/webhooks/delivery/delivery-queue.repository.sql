-- modules/webhooks/delivery/delivery-queue.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- leaseDueDeliveries
update "webhook_deliveries" set "locked_until" = ?, "lease_token" = ? where "id" in (select "d"."id" from "webhook_deliveries" as "d" where "d"."status" = 'pending' and "d"."next_attempt_at" <= ? and ("d"."locked_until" is null or "d"."locked_until" <= ?) and exists (select "e"."id" from "webhook_endpoints" as "e" where "e"."id" = "d"."endpoint_id" and "e"."enabled" = ?) and "d"."endpoint_id" not in (?) order by "d"."next_attempt_at", "d"."id" limit ?) and "status" = ? and ("locked_until" is null or "locked_until" <= ?) returning "id", "attempts", "endpoint_id", "outbox_id", "event_id", "is_test";
-- parameters: ["2026-11-21T09:01:00.000Z","lease-1","2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z",1,4,50,"pending","2026-11-21T09:00:00.000Z"]

-- markUnfinishedAttemptsLost
update "webhook_attempts" set "finished_at" = ?, "error" = ? where "delivery_id" in (?, ?) and "finished_at" is null;
-- parameters: ["2026-11-21T09:00:00.000Z","lost",7,8]

-- insertAttempts
insert into "webhook_attempts" ("delivery_id", "number", "started_at", "finished_at", "duration_ms", "response_status", "error", "response_body") values (?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?) returning "id", "delivery_id";
-- parameters: [7,1,"2026-11-21T09:00:00.000Z",null,null,null,null,null,8,3,"2026-11-21T09:00:00.000Z",null,null,null,null,null]

-- endpointTargets
select "id", "url", "format", "secret_ciphertext" from "webhook_endpoints" where "id" in (?, ?);
-- parameters: [4,5]

-- outboxEnvelopes
select "id", "envelope" from "event_outbox" where "id" in (?);
-- parameters: [9]

-- finishAttempt
update "webhook_attempts" set "finished_at" = ?, "duration_ms" = ?, "response_status" = ?, "error" = ?, "response_body" = ? where "id" = ?;
-- parameters: ["2026-11-21T09:00:00.000Z",12,200,null,"ok",21]

-- rescheduleLeasedDelivery
update "webhook_deliveries" set "status" = ?, "attempts" = ?, "next_attempt_at" = ?, "locked_until" = ?, "lease_token" = ?, "response_status" = ?, "error" = ?, "delivered_at" = ? where "id" = ? and "lease_token" = ?;
-- parameters: ["pending",2,"2026-11-21T09:05:00.000Z",null,null,503,"HTTP 503",null,7,"lease-1"]

-- markLeasedDelivered
update "webhook_deliveries" set "status" = ?, "attempts" = ?, "next_attempt_at" = ?, "locked_until" = ?, "lease_token" = ?, "response_status" = ?, "error" = ?, "delivered_at" = ? where "id" in (?, ?) and "lease_token" = ? returning "id";
-- parameters: ["delivered",1,null,null,null,200,null,"2026-11-21T09:00:00.000Z",7,8,"lease-1"]

-- resetFailureCounts
update "webhook_endpoints" set "consecutive_failures" = ? where "id" in (?) and "consecutive_failures" != ?;
-- parameters: [0,4,0]

-- countAbandonedDelivery
update "webhook_endpoints" set "consecutive_failures" = "consecutive_failures" + ? where "id" = ? returning "consecutive_failures", "enabled";
-- parameters: [1,4]
