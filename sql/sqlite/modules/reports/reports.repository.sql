-- modules/reports/reports.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- tasksOfProject
select "t"."id", "t"."key", "t"."title", "t"."status_id", "t"."estimate", "t"."sprint_id", "tt"."name" as "task_type", "t"."created_at" from "tasks" as "t" inner join "task_types" as "tt" on "tt"."id" = "t"."task_type_id" where "t"."project_id" = ? and "t"."created_at" <= ? order by "t"."id";
-- parameters: [10,"2026-11-21T09:00:00.000000Z"]

-- fieldChanges
select "a"."task_id", "a"."field", "a"."from_value", "a"."created_at" from "activities" as "a" where "a"."task_id" in (select "id" from "tasks" where "project_id" = ?) and "a"."field" in (?, ?, ?) and "a"."action" = ? and "a"."created_at" > ? order by "a"."task_id", "a"."field", "a"."created_at", "a"."id";
-- parameters: [10,"status","estimate","sprint","updated","2026-11-01T23:59:59.999999Z"]

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
