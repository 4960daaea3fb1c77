-- modules/tasks/task-input.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- namesOfProject
select "id", "name" from "statuses" where "project_id" = $1;
-- parameters: [10]

-- firstOfProject
select "id" from "priorities" where "project_id" = $1 order by "position", "id";
-- parameters: [10]

-- membersAmong
select "user_id" from "project_memberships" where "project_id" = $1 and "user_id" in ($2, $3);
-- parameters: [10,3,4]

-- labelsNamed
select "id", "name" from "labels" where "project_id" = $1 and "name" in ($2, $3);
-- parameters: [10,"ui","backend"]

-- planningItemExists
select "id" from "sprints" where "id" = $1 and "project_id" = $2;
-- parameters: [5,10]

-- taskIdByKey
select "id" from "tasks" where "project_id" = $1 and "key" = $2;
-- parameters: [10,"PROJ-1"]

-- parentIdOf
select "parent_id" from "tasks" where "id" = $1;
-- parameters: [42]

-- childIdsOfAny
select "id" from "tasks" where "parent_id" in ($1, $2);
-- parameters: [42,43]

-- statusName
select "name" from "statuses" where "id" = $1;
-- parameters: [4]
-- (stops here without a row: no result)

-- openBlockersDueAfter
select "t"."key", "t"."title", "t"."due_date" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 inner join "tasks" as "t" on "t"."project_id" = "p"."id" inner join "task_links" as "l" on "l"."from_task_id" = "t"."id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" where "p"."organization_id" = $2 and "p"."id" in ($3, $4) and "l"."type" = $5 and "l"."to_task_id" = $6 and "s"."category" != $7 and "t"."due_date" > $8 order by "t"."due_date" desc, "t"."id";
-- parameters: [3,1,10,11,"blocks",42,"done","2026-11-30"]
