-- modules/webhooks/webhooks.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- findVisibleEndpoint
select "e"."id", "e"."url", "e"."description", "e"."events", "e"."filter", "e"."format", "e"."project_id", "e"."enabled", "e"."disabled_reason", "e"."created_at", "e"."created_by", "e"."governed_by" from "webhook_endpoints" as "e" where "e"."organization_id" = ? and "e"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)) and "e"."id" = ?;
-- parameters: [1,3,1,10,11,4]

-- endpointsPage
select "e"."id", "e"."url", "e"."description", "e"."events", "e"."filter", "e"."format", "e"."project_id", "e"."enabled", "e"."disabled_reason", "e"."created_at", "e"."created_by", "e"."governed_by" from "webhook_endpoints" as "e" where "e"."organization_id" = ? and "e"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)) order by "e"."id" asc, "e"."id" asc limit ? offset ?;
-- parameters: [1,3,1,10,11,50,0]
select count(*) as "count" from "webhook_endpoints" as "e" where "e"."organization_id" = ? and "e"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?));
-- parameters: [1,3,1,10,11]
-- (stops here without a row: no result)

-- insertEndpoint
insert into "webhook_endpoints" ("organization_id", "created_by", "governed_by", "project_id", "url", "description", "events", "secret_ciphertext", "enabled", "disabled_reason", "consecutive_failures", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning "id";
-- parameters: [1,3,3,10,"https://hooks.example.test/in","","[\"task.created\"]","v1.iv.tag.ct",1,null,0,"2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- updateEndpoint
update "webhook_endpoints" set "enabled" = ?, "disabled_reason" = ?, "consecutive_failures" = ?, "updated_at" = ? where "id" = ?;
-- parameters: [1,null,0,"2026-11-21T09:00:00.000Z",4]

-- deleteEndpoint
delete from "webhook_endpoints" where "id" = ?;
-- parameters: [4]

-- findVisibleEndpointSecret
select "secret_ciphertext" from "webhook_endpoints" where "id" in (select "e"."id" from "webhook_endpoints" as "e" where "e"."organization_id" = ? and "e"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?))) and "id" = ?;
-- parameters: [1,3,1,10,11,4]

-- findVisibleDelivery
select "d"."id", "d"."endpoint_id", "d"."event_id", "d"."event_type", "d"."status", "d"."attempts", "d"."next_attempt_at", "d"."response_status", "d"."error", "d"."created_at", "d"."delivered_at", "d"."is_test", "d"."replay_of", "d"."outbox_id", "ev"."project_id" as "event_project_id" from "webhook_deliveries" as "d" inner join "event_outbox" as "ev" on "ev"."id" = "d"."outbox_id" where "d"."organization_id" = ? and "d"."endpoint_id" in (select "e"."id" from "webhook_endpoints" as "e" where "e"."organization_id" = ? and "e"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?))) and exists (select "o"."id" from "event_outbox" as "o" where "o"."id" = "d"."outbox_id" and ("o"."project_id" is null or "o"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?))) and ("o"."recipient_id" is null or "o"."recipient_id" = ?)) and "d"."id" = ?;
-- parameters: [1,1,3,1,10,11,3,1,10,11,3,7]

-- deliveriesPage
select "d"."id", "d"."endpoint_id", "d"."event_id", "d"."event_type", "d"."status", "d"."attempts", "d"."next_attempt_at", "d"."response_status", "d"."error", "d"."created_at", "d"."delivered_at", "d"."is_test", "d"."replay_of" from "webhook_deliveries" as "d" where "d"."organization_id" = ? and "d"."endpoint_id" in (select "e"."id" from "webhook_endpoints" as "e" where "e"."organization_id" = ? and "e"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?))) and exists (select "o"."id" from "event_outbox" as "o" where "o"."id" = "d"."outbox_id" and ("o"."project_id" is null or "o"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?))) and ("o"."recipient_id" is null or "o"."recipient_id" = ?)) and "d"."endpoint_id" = ? and "d"."status" = ? order by "d"."id" desc, "d"."id" desc limit ? offset ?;
-- parameters: [1,1,3,1,10,11,3,1,10,11,3,4,"failed",50,0]
select count(*) as "count" from "webhook_deliveries" as "d" where "d"."organization_id" = ? and "d"."endpoint_id" in (select "e"."id" from "webhook_endpoints" as "e" where "e"."organization_id" = ? and "e"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?))) and exists (select "o"."id" from "event_outbox" as "o" where "o"."id" = "d"."outbox_id" and ("o"."project_id" is null or "o"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?))) and ("o"."recipient_id" is null or "o"."recipient_id" = ?)) and "d"."endpoint_id" = ? and "d"."status" = ?;
-- parameters: [1,1,3,1,10,11,3,1,10,11,3,4,"failed"]
-- (stops here without a row: no result)

-- attemptsOfDelivery
select "number", "started_at", "duration_ms", "response_status", "error", "response_body" from "webhook_attempts" where "delivery_id" = ? order by "id";
-- parameters: [7]

-- markEventFannedOut
update "event_outbox" set "fanned_out_at" = ? where "event_id" = ? returning "id";
-- parameters: ["2026-11-21T09:00:00.000Z","evt_1"]
-- (stops here without a row: no result)

-- insertDelivery
insert into "webhook_deliveries" ("endpoint_id", "organization_id", "outbox_id", "event_id", "event_type", "is_test", "replay_of", "status", "attempts", "next_attempt_at", "locked_until", "lease_token", "response_status", "error", "created_at", "delivered_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning "id";
-- parameters: [4,1,9,"evt_1","task.created",0,null,"pending",0,"2026-11-21T09:00:00.000Z",null,null,null,null,"2026-11-21T09:00:00.000Z",null]
-- (stops here without a row: no result)

-- insertDeliveries
insert into "webhook_deliveries" ("endpoint_id", "organization_id", "outbox_id", "event_id", "event_type", "is_test", "replay_of", "status", "attempts", "next_attempt_at", "locked_until", "lease_token", "response_status", "error", "created_at", "delivered_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- parameters: [4,1,9,"evt_1","task.created",0,null,"pending",0,"2026-11-21T09:00:00.000Z",null,null,null,null,"2026-11-21T09:00:00.000Z",null,5,1,9,"evt_1","task.created",0,null,"pending",0,"2026-11-21T09:00:00.000Z",null,null,null,null,"2026-11-21T09:00:00.000Z",null]
