-- modules/reports/reports.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- changesSince
select "m"."total", "m"."last", "c"."task_id" from (select count(*) as "total", max("id") as "last" from "task_changes" where "project_id" = ?) as "m" left join "task_changes" as "c" on "c"."project_id" = ? and "c"."id" > ?;
-- parameters: [10,10,120]

-- tasksOfProject
select "id", "key", "title", "task_type_id", "status_id", "estimate", "sprint_id", "created_at" from "tasks" where "project_id" = ? and "id" in (?, ?) order by "id";
-- parameters: [10,3,4]

-- fieldChanges
select "a"."task_id", "a"."field", "a"."from_value", "a"."created_at" from "activities" as "a" where "a"."task_id" in (select "id" from "tasks" where "project_id" = ?) and "a"."field" in (?, ?, ?) and "a"."action" = ? order by "a"."task_id", "a"."field", "a"."created_at", "a"."id";
-- parameters: [10,"status","estimate","sprint","updated"]

-- statusesWithRenames
select "id", "name", "category", "position" from "statuses" where "project_id" = ? order by "position", "id";
-- parameters: [10]
select "r"."status_id", "r"."from_name", "r"."to_name", "r"."renamed_at" from "status_renames" as "r" inner join "statuses" as "s" on "s"."id" = "r"."status_id" where "s"."project_id" = ? order by "r"."id";
-- parameters: [10]

-- sprintsOfProject
select "id", "name", "state", "start_date", "end_date" from "sprints" where "project_id" = ? order by "start_date", "id";
-- parameters: [10]

-- estimateUnitOf
select "estimate_unit" from "projects" where "id" = ?;
-- parameters: [10]
-- (stops here without a row: no result)

-- taskTypesOf
select "id", "name" from "task_types" where "project_id" = ? order by "id";
-- parameters: [10]
