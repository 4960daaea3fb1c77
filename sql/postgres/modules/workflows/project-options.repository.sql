-- modules/workflows/project-options.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- optionsPage
select "o"."id", "o"."name", "o"."position", case when "op"."default_priority_id" = o.id then 1 else 0 end as "is_default" from "priorities" as "o" inner join "projects" as "op" on "op"."id" = "o"."project_id" where "o"."project_id" = $1 order by "o"."position" asc, "o"."id" asc limit $2 offset $3;
-- parameters: [10,50,0]
select count(*) as "count" from "priorities" as "o" inner join "projects" as "op" on "op"."id" = "o"."project_id" where "o"."project_id" = $1;
-- parameters: [10]
-- (stops here without a row: no result)

-- insertOption
insert into "priorities" ("project_id", "name", "position") values ($1, $2, $3) returning "id";
-- parameters: [10,"Urgent",3]
-- (stops here without a row: no result)

-- setProjectDefaults
update "projects" set "workflow_id" = $1, "default_status_id" = $2, "default_task_type_id" = $3, "default_priority_id" = $4 where "id" = $5;
-- parameters: [2,4,1,2,10]
