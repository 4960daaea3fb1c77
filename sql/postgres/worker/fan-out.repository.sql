-- worker/fan-out.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- takeUnfannedEvents
update "event_outbox" set "fanned_out_at" = $1 where "id" in (select "id" from "event_outbox" where "fanned_out_at" is null order by "id" limit $2 for update skip locked) and "fanned_out_at" is null returning "id", "event_id", "type", "organization_id", "project_id";
-- parameters: ["2026-11-21T09:00:00.000Z",200]

-- enabledEndpointsOf
select "id", "organization_id", "governed_by", "project_id", "events" from "webhook_endpoints" where "organization_id" in ($1, $2) and "enabled" = $3 order by "id";
-- parameters: [1,2,1]

-- membershipsAmong
select "user_id", "project_id" from "project_memberships" where "user_id" in ($1, $2) and "project_id" in ($3, $4);
-- parameters: [3,4,10,11]
