-- policy/visibility.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- visibleProjects
select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?);
-- parameters: [3,1,10,11]

-- visibleProjectIds
select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?);
-- parameters: [3,1,10,11]

-- findVisibleProjectRef
select "p"."id", "p"."key", "p"."name", "p"."organization_id", "p"."workflow_id", "pm"."role" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?) and "p"."id" = ?;
-- parameters: [3,1,10,11,10]
select "p"."id", "p"."key", "p"."name", "p"."organization_id", "p"."workflow_id", "pm"."role" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?) and "p"."key" = ?;
-- parameters: [3,1,10,11,"WEB"]

-- loadVisibleProjects
select "p"."id", "p"."key", "p"."name", "p"."organization_id", "p"."workflow_id", "pm"."role" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?);
-- parameters: [3,1,10,11]

-- projectIdsOfAccount
select "project_id" from "project_memberships" where "user_id" = ?;
-- parameters: [3]

-- isMemberOf
select "id" from "project_memberships" where "user_id" = ? and "project_id" = ?;
-- parameters: [3,10]

-- visibleEndpoints
select "e"."id" from "webhook_endpoints" as "e" where "e"."organization_id" = ? and "e"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?));
-- parameters: [1,3,1,10,11]

-- visibleDeliveries
select "d"."id" from "webhook_deliveries" as "d" where "d"."organization_id" = ? and "d"."endpoint_id" in (select "e"."id" from "webhook_endpoints" as "e" where "e"."organization_id" = ? and "e"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?))) and exists (select "o"."id" from "event_outbox" as "o" where "o"."id" = "d"."outbox_id" and ("o"."project_id" is null or "o"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?))) and ("o"."recipient_id" is null or "o"."recipient_id" = ?));
-- parameters: [1,1,3,1,10,11,3,1,10,11,3]

-- visibleProjectIdsOfPeople
select "pm"."user_id", "pm"."project_id" from "project_memberships" as "pm" inner join "users" as "u" on "u"."id" = "pm"."user_id" inner join "projects" as "p" on "p"."id" = "pm"."project_id" and "p"."organization_id" = "u"."organization_id" where "pm"."user_id" in (?, ?);
-- parameters: [3,4]

-- findAccountIn
select "id", "organization_id", "kind", "role", "active", "name", "email" from "users" where "id" = ? and "organization_id" = ?;
-- parameters: [3,1]

-- visibleCustomFieldIds
select "vf"."id" from "custom_fields" as "vf" where "vf"."organization_id" = ? and ("vf"."all_projects" = ? or not exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id") or exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id" and "vfp"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?))));
-- parameters: [1,1,3,1,10,11]
