-- modules/tasks/task-list.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- taskListPage
select "t"."id", coalesce(t.due_date, '9999-12-31') as "due_sort" from "tasks" as "t" left join "priorities" as "pr" on "pr"."id" = "t"."priority_id" where "t"."project_id" = ? and "t"."status_id" in (select "id" from "statuses" where "project_id" = ? and "category" in (?)) and "t"."id" in (select "tl"."task_id" from "task_labels" as "tl" inner join "labels" as "l" on "l"."id" = "tl"."label_id" where "l"."project_id" = ? and "l"."name" in (?)) order by "t"."number" asc, "t"."id" asc limit ? offset ?;
-- parameters: [10,10,"todo",10,"ui",50,0]
select count(*) as "count" from (select "t"."id" from "tasks" as "t" where "t"."project_id" = ? and "t"."status_id" in (select "id" from "statuses" where "project_id" = ? and "category" in (?)) and "t"."id" in (select "tl"."task_id" from "task_labels" as "tl" inner join "labels" as "l" on "l"."id" = "tl"."label_id" where "l"."project_id" = ? and "l"."name" in (?)) limit ?) as "m";
-- parameters: [10,10,"todo",10,"ui",1051]
-- (stops here without a row: no result)

-- queryOrderedPage
select "m"."id" from (select * from (select "t"."id" as "id", "t"."created_at" as "o0", 0 as "o1", "t"."number" as "o2" from "tasks" as "t" where "t"."project_id" = ? and "t"."status_id" in (select "id" from "statuses" where "project_id" = ? and "category" in (?)) and "t"."id" in (select "tl"."task_id" from "task_labels" as "tl" inner join "labels" as "l" on "l"."id" = "tl"."label_id" where "l"."project_id" = ? and "l"."name" in (?)) order by "t"."created_at" desc, "t"."number" asc limit ?) as "b0") as "m" order by "m"."o0" desc, "m"."o1" asc, "m"."o2" asc limit ? offset ?;
-- parameters: [10,10,"todo",10,"ui",50,50,0]
select count(*) as "count" from (select "t"."id" from "tasks" as "t" where "t"."project_id" = ? and "t"."status_id" in (select "id" from "statuses" where "project_id" = ? and "category" in (?)) and "t"."id" in (select "tl"."task_id" from "task_labels" as "tl" inner join "labels" as "l" on "l"."id" = "tl"."label_id" where "l"."project_id" = ? and "l"."name" in (?)) limit ?) as "m";
-- parameters: [10,10,"todo",10,"ui",1051]
-- (stops here without a row: no result)

-- taskRowsInOrder
select "t"."id", "t"."project_id", "t"."number", "t"."key", "t"."title", "t"."description", "t"."task_type_id", "t"."priority_id", "t"."status_id", "t"."assignee_id", "t"."parent_id", "t"."due_date", "t"."start_date", "t"."estimate", "t"."milestone_id", "t"."sprint_id", "t"."version", "t"."created_by", "t"."created_at", "t"."updated_at", "p"."key" as "project_key", "tt"."name" as "task_type", "pr"."name" as "priority", "s"."name" as "status", "s"."category" as "status_category", "pt"."key" as "parent_key", (SELECT json_group_array(l.name) FROM task_labels tl JOIN labels l ON l.id = tl.label_id WHERE tl.task_id = t.id) as "labels_json", (SELECT json_group_object(CAST(v.field_id AS TEXT), json(v.value)) FROM task_custom_values v WHERE v.task_id = t.id) as "custom_fields_json", (SELECT coalesce(sum(te.minutes), 0) FROM time_entries te WHERE te.task_id = t.id) as "minutes_spent", (WITH RECURSIVE sub(id) AS (SELECT c.id FROM tasks c WHERE c.parent_id = t.id UNION ALL SELECT c.id FROM tasks c JOIN sub ON c.parent_id = sub.id)
    SELECT CASE WHEN count(*) = 0 THEN NULL ELSE json_object('estimate', coalesce(sum(d.estimate), 0), 'done_estimate', coalesce(sum(CASE WHEN ds.category = 'done' THEN d.estimate END), 0), 'minutes', coalesce(sum((SELECT sum(te.minutes) FROM time_entries te WHERE te.task_id = d.id)), 0)) END
    FROM sub JOIN tasks d ON d.id = sub.id JOIN statuses ds ON ds.id = d.status_id) as "rollup_json" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" inner join "task_types" as "tt" on "tt"."id" = "t"."task_type_id" inner join "priorities" as "pr" on "pr"."id" = "t"."priority_id" left join "tasks" as "pt" on "pt"."id" = "t"."parent_id" where t.id in (select value from json_each(?));
-- parameters: ["[43,42]"]
