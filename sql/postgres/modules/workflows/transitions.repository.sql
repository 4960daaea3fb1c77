-- modules/workflows/transitions.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- transitionsPage
select "t"."id", "t"."workflow_id" as "workflow", "w"."project_id" as "project", "t"."from_status_id" as "from_status", "t"."to_status_id" as "to_status", "fs"."name" as "from_status_name", "ts"."name" as "to_status_name", "t"."name", "t"."created_at", "t"."updated_at" from "transitions" as "t" inner join "workflows" as "w" on "w"."id" = "t"."workflow_id" inner join "statuses" as "fs" on "fs"."id" = "t"."from_status_id" inner join "statuses" as "ts" on "ts"."id" = "t"."to_status_id" where "w"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "t"."workflow_id" = $5 order by "t"."workflow_id" asc, "t"."id" asc limit $6 offset $7;
-- parameters: [3,1,10,11,2,50,0]
select count(*) as "count" from "transitions" as "t" inner join "workflows" as "w" on "w"."id" = "t"."workflow_id" inner join "statuses" as "fs" on "fs"."id" = "t"."from_status_id" inner join "statuses" as "ts" on "ts"."id" = "t"."to_status_id" where "w"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "t"."workflow_id" = $5;
-- parameters: [3,1,10,11,2]
-- (stops here without a row: no result)

-- findVisibleTransition
select "t"."id", "t"."workflow_id" as "workflow", "w"."project_id" as "project", "t"."from_status_id" as "from_status", "t"."to_status_id" as "to_status", "fs"."name" as "from_status_name", "ts"."name" as "to_status_name", "t"."name", "t"."created_at", "t"."updated_at" from "transitions" as "t" inner join "workflows" as "w" on "w"."id" = "t"."workflow_id" inner join "statuses" as "fs" on "fs"."id" = "t"."from_status_id" inner join "statuses" as "ts" on "ts"."id" = "t"."to_status_id" where "w"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "t"."id" = $5;
-- parameters: [3,1,10,11,8]

-- transitionsOfWorkflows
select "t"."id", "t"."workflow_id", "t"."from_status_id" as "from_status", "t"."to_status_id" as "to_status", "fs"."name" as "from_status_name", "ts"."name" as "to_status_name", "t"."name" from "transitions" as "t" inner join "statuses" as "fs" on "fs"."id" = "t"."from_status_id" inner join "statuses" as "ts" on "ts"."id" = "t"."to_status_id" where "t"."workflow_id" in ($1, $2) order by "t"."id";
-- parameters: [2,3]

-- findTransitionBetween
select "id" from "transitions" where "workflow_id" = $1 and "from_status_id" = $2 and "to_status_id" = $3;
-- parameters: [2,4,5]

-- insertTransitions
insert into "transitions" ("workflow_id", "from_status_id", "to_status_id", "name", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6) returning "id";
-- parameters: [2,4,5,"To Do → Done","2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z"]

-- updateTransitionRow
update "transitions" set "from_status_id" = $1, "to_status_id" = $2, "name" = $3, "updated_at" = $4 where "id" = $5;
-- parameters: [4,6,"Skip","2026-11-21T09:00:00.000Z",8]

-- deleteTransitionRow
delete from "transitions" where "id" = $1;
-- parameters: [8]
