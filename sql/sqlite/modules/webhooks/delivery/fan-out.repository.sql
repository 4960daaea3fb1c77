-- modules/webhooks/delivery/fan-out.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- takeUnfannedEvents
update "event_outbox" set "fanned_out_at" = ? where "id" in (select "id" from "event_outbox" where "fanned_out_at" is null order by "id" limit ?) and "fanned_out_at" is null returning "id", "event_id", "type", "organization_id", "project_id", "related_project_id", "recipient_id", "task_change_id";
-- parameters: ["2026-11-21T09:00:00.000Z",200]

-- takeUnfannedStatement
update "event_outbox" set "fanned_out_at" = ? where "id" in (select "id" from "event_outbox" where "fanned_out_at" is null order by "id" limit ?) and "fanned_out_at" is null returning "id", "event_id", "type", "organization_id", "project_id", "related_project_id", "recipient_id", "task_change_id";
-- parameters: ["2026-11-21T09:00:00.000Z",200]

-- enabledEndpointsOf
select "id", "organization_id", "governed_by", "project_id", "events", "filter" from "webhook_endpoints" where "organization_id" in (?, ?) and "enabled" = ? order by "id";
-- parameters: [1,2,1]

-- membershipsAmong
select "user_id", "project_id" from "project_memberships" where "user_id" in (?, ?) and "project_id" in (?, ?);
-- parameters: [3,4,10,11]

-- projectsOfAccounts
select "pm"."user_id", "p"."id", "p"."key" from "project_memberships" as "pm" inner join "users" as "u" on "u"."id" = "pm"."user_id" inner join "projects" as "p" on "p"."id" = "pm"."project_id" and "p"."organization_id" = "u"."organization_id" where "pm"."user_id" in (?, ?);
-- parameters: [3,4]

-- envelopesOf
select "id", "envelope" from "event_outbox" where "id" in (?, ?);
-- parameters: [5,6]
