-- modules/workflows/workflows.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- workflowsPage
select "w"."id", "w"."project_id" as "project", "w"."name", "w"."description", case when wp.workflow_id = w.id then 1 else 0 end as "active", "w"."created_at", "w"."updated_at" from "workflows" as "w" inner join "projects" as "wp" on "wp"."id" = "w"."project_id" where "w"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "w"."project_id" = $5 order by "w"."project_id" asc, "w"."id" asc limit $6 offset $7;
-- parameters: [3,1,10,11,10,50,0]
select count(*) as "count" from "workflows" as "w" inner join "projects" as "wp" on "wp"."id" = "w"."project_id" where "w"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "w"."project_id" = $5;
-- parameters: [3,1,10,11,10]
-- (stops here without a row: no result)

-- findVisibleWorkflow
select "w"."id", "w"."project_id" as "project", "w"."name", "w"."description", case when wp.workflow_id = w.id then 1 else 0 end as "active", "w"."created_at", "w"."updated_at" from "workflows" as "w" inner join "projects" as "wp" on "wp"."id" = "w"."project_id" where "w"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "w"."id" = $5;
-- parameters: [3,1,10,11,2]

-- insertWorkflow
insert into "workflows" ("project_id", "name", "description", "created_at", "updated_at") values ($1, $2, $3, $4, $5) returning "id";
-- parameters: [10,"Kanban","","2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- updateWorkflowFields
update "workflows" set "name" = $1, "updated_at" = $2 where "id" = $3;
-- parameters: ["Kanban","2026-11-21T09:00:00.000Z",2]

-- touchWorkflows
update "workflows" set "updated_at" = $1 where "id" in ($2, $3);
-- parameters: ["2026-11-21T09:00:00.000Z",2,3]

-- activeWorkflowOf
select "workflow_id" from "projects" where "id" = $1;
-- parameters: [10]
-- (stops here without a row: no result)

-- setActiveWorkflow
update "projects" set "workflow_id" = $1, "updated_at" = $2 where "id" = $3;
-- parameters: [2,"2026-11-21T09:00:00.000Z",10]

-- deleteWorkflowWithTransitions
delete from "transitions" where "workflow_id" = $1;
-- parameters: [2]
delete from "workflows" where "id" = $1;
-- parameters: [2]
