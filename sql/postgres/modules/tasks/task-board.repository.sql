-- modules/tasks/task-board.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- boardStatuses
select "id", "name", "category", "position" from "statuses" where "project_id" = $1 order by "position", "id";
-- parameters: [10]

-- countsByStatus
select "t"."status_id", count(*) as "count" from "tasks" as "t" where "t"."project_id" = $1 and "t"."assignee_id" = $2 group by "t"."status_id";
-- parameters: [10,3]

-- columnIds
select "t"."id" from "tasks" as "t" where "t"."project_id" = $1 and "t"."id" in (select "tl"."task_id" from "task_labels" as "tl" inner join "labels" as "l" on "l"."id" = "tl"."label_id" where "l"."project_id" = $2 and "l"."name" in ($3)) and "t"."status_id" = $4 and "t"."id" > $5 order by "t"."id" limit $6;
-- parameters: [10,10,"ui",4,120,51]

-- withText
select "t"."id" from "tasks" as "t" where "t"."project_id" = $1 and (("t"."title" ILIKE $2 ESCAPE '\' and "t"."title" ILIKE $3 ESCAPE '\') or "t"."key" ILIKE $4 ESCAPE '\');
-- parameters: [10,"%login%","%100\\%%","%login 100\\%%"]
