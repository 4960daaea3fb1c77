-- modules/tasks/task-board.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- boardStatuses
select "id", "name", "category", "position" from "statuses" where "project_id" = ? order by "position", "id";
-- parameters: [10]

-- countsByStatus
select "t"."status_id", count(*) as "count" from "tasks" as "t" where "t"."project_id" = ? and "t"."assignee_id" = ? group by "t"."status_id";
-- parameters: [10,3]

-- columnIds
select "t"."id" from "tasks" as "t" where "t"."project_id" = ? and "t"."id" in (select "tl"."task_id" from "task_labels" as "tl" inner join "labels" as "l" on "l"."id" = "tl"."label_id" where "l"."project_id" = ? and "l"."name" in (?)) and "t"."status_id" = ? and "t"."id" > ? order by "t"."id" limit ?;
-- parameters: [10,10,"ui",4,120,51]

-- withText
select "t"."id" from "tasks" as "t" where "t"."project_id" = ? and (("t"."title" LIKE ? ESCAPE '\' and "t"."title" LIKE ? ESCAPE '\') or "t"."key" LIKE ? ESCAPE '\');
-- parameters: [10,"%login%","%100\\%%","%login 100\\%%"]
