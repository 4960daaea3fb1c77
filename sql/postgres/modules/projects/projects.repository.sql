-- modules/projects/projects.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- visibleProjectsPage
select "p"."id", "p"."key", "p"."name", "p"."description", "p"."workflow_id", "ds"."name" as "default_status", "dt"."name" as "default_task_type", "dp"."name" as "default_priority", "p"."estimate_unit", "pm"."role", "p"."created_by", "p"."created_at", "p"."updated_at" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 left join "statuses" as "ds" on "ds"."id" = "p"."default_status_id" left join "task_types" as "dt" on "dt"."id" = "p"."default_task_type_id" left join "priorities" as "dp" on "dp"."id" = "p"."default_priority_id" where "p"."organization_id" = $2 and "p"."id" in ($3, $4) order by "p"."key" asc, "p"."id" asc limit $5 offset $6;
-- parameters: [3,1,10,11,50,0]
select count(*) as "count" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 left join "statuses" as "ds" on "ds"."id" = "p"."default_status_id" left join "task_types" as "dt" on "dt"."id" = "p"."default_task_type_id" left join "priorities" as "dp" on "dp"."id" = "p"."default_priority_id" where "p"."organization_id" = $2 and "p"."id" in ($3, $4);
-- parameters: [3,1,10,11]
-- (stops here without a row: no result)

-- findVisibleProject
select "p"."id", "p"."key", "p"."name", "p"."description", "p"."workflow_id", "ds"."name" as "default_status", "dt"."name" as "default_task_type", "dp"."name" as "default_priority", "p"."estimate_unit", "pm"."role", "p"."created_by", "p"."created_at", "p"."updated_at" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 left join "statuses" as "ds" on "ds"."id" = "p"."default_status_id" left join "task_types" as "dt" on "dt"."id" = "p"."default_task_type_id" left join "priorities" as "dp" on "dp"."id" = "p"."default_priority_id" where "p"."organization_id" = $2 and "p"."id" in ($3, $4) and "p"."id" = $5;
-- parameters: [3,1,10,11,10]

-- findProjectByKey
select "id", "key" from "projects" where "organization_id" = $1 and "key" = $2;
-- parameters: [1,"WEB"]

-- findNamedId
select "id" from "statuses" where "project_id" = $1 and "name" = $2;
-- parameters: [10,"Done"]

-- projectHasTasks
select "id" from "tasks" where "project_id" = $1 limit $2;
-- parameters: [10,1]

-- insertProject
insert into "projects" ("organization_id", "key", "name", "description", "created_by", "task_counter", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8) returning "id";
-- parameters: [1,"WEB","Website","",3,0,"2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- updateProjectSettings
update "projects" set "name" = $1, "default_status_id" = $2, "updated_at" = $3 where "id" = $4;
-- parameters: ["Website",4,"2026-11-21T09:00:00.000Z",10]

-- deleteProjectRow
delete from "projects" where "id" = $1;
-- parameters: [10]

-- lockProject
select "id" from "projects" where "id" = $1 for no key update;
-- parameters: [10]

-- lockProjectForDecision
select "id" from "projects" where "id" = $1 for no key update;
-- parameters: [10]

-- lockProjectWithTasks
select "id" from "projects" where "id" = $1 for update;
-- parameters: [10]
select "id" from "tasks" where "project_id" = $1 for update;
-- parameters: [10]
