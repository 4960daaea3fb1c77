-- modules/workflows/project-options.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- optionsPage
select "o"."id", "o"."name", "o"."position", case when "op"."default_priority_id" = o.id then 1 else 0 end as "is_default" from "priorities" as "o" inner join "projects" as "op" on "op"."id" = "o"."project_id" where "o"."project_id" = ? order by "o"."position" asc, "o"."id" asc limit ? offset ?;
-- parameters: [10,50,0]
select count(*) as "count" from "priorities" as "o" inner join "projects" as "op" on "op"."id" = "o"."project_id" where "o"."project_id" = ?;
-- parameters: [10]
-- (stops here without a row: no result)

-- insertOption
insert into "priorities" ("project_id", "name", "position") values (?, ?, ?) returning "id";
-- parameters: [10,"Urgent",3]
-- (stops here without a row: no result)

-- setProjectDefaults
update "projects" set "workflow_id" = ?, "default_status_id" = ?, "default_task_type_id" = ?, "default_priority_id" = ? where "id" = ?;
-- parameters: [2,4,1,2,10]
