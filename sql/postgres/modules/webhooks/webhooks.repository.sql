-- modules/webhooks/webhooks.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- findVisibleEndpoint
select "e"."id", "e"."url", "e"."description", "e"."events", "e"."filter", "e"."format", "e"."project_id", "e"."enabled", "e"."disabled_reason", "e"."created_at", "e"."created_by", "e"."governed_by" from "webhook_endpoints" as "e" where "e"."organization_id" = $1 and "e"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $2 where "p"."organization_id" = $3 and "p"."id" in ($4, $5)) and "e"."id" = $6;
-- parameters: [1,3,1,10,11,4]

-- endpointsPage
select "e"."id", "e"."url", "e"."description", "e"."events", "e"."filter", "e"."format", "e"."project_id", "e"."enabled", "e"."disabled_reason", "e"."created_at", "e"."created_by", "e"."governed_by" from "webhook_endpoints" as "e" where "e"."organization_id" = $1 and "e"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $2 where "p"."organization_id" = $3 and "p"."id" in ($4, $5)) order by "e"."id" asc, "e"."id" asc limit $6 offset $7;
-- parameters: [1,3,1,10,11,50,0]
select count(*) as "count" from "webhook_endpoints" as "e" where "e"."organization_id" = $1 and "e"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $2 where "p"."organization_id" = $3 and "p"."id" in ($4, $5));
-- parameters: [1,3,1,10,11]
-- (stops here without a row: no result)

-- insertEndpoint
insert into "webhook_endpoints" ("organization_id", "created_by", "governed_by", "project_id", "url", "description", "events", "secret_ciphertext", "enabled", "disabled_reason", "consecutive_failures", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) returning "id";
-- parameters: [1,3,3,10,"https://hooks.example.test/in","","[\"task.created\"]","v1.iv.tag.ct",1,null,0,"2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- updateEndpoint
update "webhook_endpoints" set "enabled" = $1, "disabled_reason" = $2, "consecutive_failures" = $3, "updated_at" = $4 where "id" = $5;
-- parameters: [1,null,0,"2026-11-21T09:00:00.000Z",4]

-- deleteEndpoint
delete from "webhook_endpoints" where "id" = $1;
-- parameters: [4]

-- findVisibleEndpointSecret
select "secret_ciphertext" from "webhook_endpoints" where "id" in (select "e"."id" from "webhook_endpoints" as "e" where "e"."organization_id" = $1 and "e"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $2 where "p"."organization_id" = $3 and "p"."id" in ($4, $5))) and "id" = $6;
-- parameters: [1,3,1,10,11,4]

-- findVisibleDelivery
select "d"."id", "d"."endpoint_id", "d"."event_id", "d"."event_type", "d"."status", "d"."attempts", "d"."next_attempt_at", "d"."response_status", "d"."error", "d"."created_at", "d"."delivered_at", "d"."is_test", "d"."replay_of", "d"."outbox_id", "ev"."project_id" as "event_project_id" from "webhook_deliveries" as "d" inner join "event_outbox" as "ev" on "ev"."id" = "d"."outbox_id" where "d"."organization_id" = $1 and "d"."endpoint_id" in (select "e"."id" from "webhook_endpoints" as "e" where "e"."organization_id" = $2 and "e"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $3 where "p"."organization_id" = $4 and "p"."id" in ($5, $6))) and exists (select "o"."id" from "event_outbox" as "o" where "o"."id" = "d"."outbox_id" and ("o"."project_id" is null or "o"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $7 where "p"."organization_id" = $8 and "p"."id" in ($9, $10))) and ("o"."recipient_id" is null or "o"."recipient_id" = $11)) and "d"."id" = $12;
-- parameters: [1,1,3,1,10,11,3,1,10,11,3,7]

-- deliveriesPage
select "d"."id", "d"."endpoint_id", "d"."event_id", "d"."event_type", "d"."status", "d"."attempts", "d"."next_attempt_at", "d"."response_status", "d"."error", "d"."created_at", "d"."delivered_at", "d"."is_test", "d"."replay_of" from "webhook_deliveries" as "d" where "d"."organization_id" = $1 and "d"."endpoint_id" in (select "e"."id" from "webhook_endpoints" as "e" where "e"."organization_id" = $2 and "e"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $3 where "p"."organization_id" = $4 and "p"."id" in ($5, $6))) and exists (select "o"."id" from "event_outbox" as "o" where "o"."id" = "d"."outbox_id" and ("o"."project_id" is null or "o"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $7 where "p"."organization_id" = $8 and "p"."id" in ($9, $10))) and ("o"."recipient_id" is null or "o"."recipient_id" = $11)) and "d"."endpoint_id" = $12 and "d"."status" = $13 order by "d"."id" desc, "d"."id" desc limit $14 offset $15;
-- parameters: [1,1,3,1,10,11,3,1,10,11,3,4,"failed",50,0]
select count(*) as "count" from "webhook_deliveries" as "d" where "d"."organization_id" = $1 and "d"."endpoint_id" in (select "e"."id" from "webhook_endpoints" as "e" where "e"."organization_id" = $2 and "e"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $3 where "p"."organization_id" = $4 and "p"."id" in ($5, $6))) and exists (select "o"."id" from "event_outbox" as "o" where "o"."id" = "d"."outbox_id" and ("o"."project_id" is null or "o"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $7 where "p"."organization_id" = $8 and "p"."id" in ($9, $10))) and ("o"."recipient_id" is null or "o"."recipient_id" = $11)) and "d"."endpoint_id" = $12 and "d"."status" = $13;
-- parameters: [1,1,3,1,10,11,3,1,10,11,3,4,"failed"]
-- (stops here without a row: no result)

-- attemptsOfDelivery
select "number", "started_at", "duration_ms", "response_status", "error", "response_body" from "webhook_attempts" where "delivery_id" = $1 order by "id";
-- parameters: [7]

-- markEventFannedOut
update "event_outbox" set "fanned_out_at" = $1 where "event_id" = $2 returning "id";
-- parameters: ["2026-11-21T09:00:00.000Z","evt_1"]
-- (stops here without a row: no result)

-- insertDelivery
insert into "webhook_deliveries" ("endpoint_id", "organization_id", "outbox_id", "event_id", "event_type", "is_test", "replay_of", "status", "attempts", "next_attempt_at", "locked_until", "lease_token", "response_status", "error", "created_at", "delivered_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) returning "id";
-- parameters: [4,1,9,"evt_1","task.created",0,null,"pending",0,"2026-11-21T09:00:00.000Z",null,null,null,null,"2026-11-21T09:00:00.000Z",null]
-- (stops here without a row: no result)

-- insertDeliveries
insert into "webhook_deliveries" ("endpoint_id", "organization_id", "outbox_id", "event_id", "event_type", "is_test", "replay_of", "status", "attempts", "next_attempt_at", "locked_until", "lease_token", "response_status", "error", "created_at", "delivered_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16), ($17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32);
-- parameters: [4,1,9,"evt_1","task.created",0,null,"pending",0,"2026-11-21T09:00:00.000Z",null,null,null,null,"2026-11-21T09:00:00.000Z",null,5,1,9,"evt_1","task.created",0,null,"pending",0,"2026-11-21T09:00:00.000Z",null,null,null,null,"2026-11-21T09:00:00.000Z",null]
