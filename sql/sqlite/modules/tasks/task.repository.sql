-- modules/tasks/task.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- selectTaskRows
select "t"."id", "t"."project_id", "t"."number", "t"."key", "t"."title", "t"."description", "t"."task_type_id", "t"."priority_id", "t"."status_id", "t"."assignee_id", "t"."parent_id", "t"."due_date", "t"."start_date", "t"."estimate", "t"."milestone_id", "t"."sprint_id", "t"."version", "t"."created_by", "t"."created_at", "t"."updated_at", "p"."key" as "project_key", "tt"."name" as "task_type", "pr"."name" as "priority", "s"."name" as "status", "s"."category" as "status_category", "pt"."key" as "parent_key" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" inner join "task_types" as "tt" on "tt"."id" = "t"."task_type_id" inner join "priorities" as "pr" on "pr"."id" = "t"."priority_id" left join "tasks" as "pt" on "pt"."id" = "t"."parent_id";

-- selectTaskRowsWithExtras
select "t"."id", "t"."project_id", "t"."number", "t"."key", "t"."title", "t"."description", "t"."task_type_id", "t"."priority_id", "t"."status_id", "t"."assignee_id", "t"."parent_id", "t"."due_date", "t"."start_date", "t"."estimate", "t"."milestone_id", "t"."sprint_id", "t"."version", "t"."created_by", "t"."created_at", "t"."updated_at", "p"."key" as "project_key", "tt"."name" as "task_type", "pr"."name" as "priority", "s"."name" as "status", "s"."category" as "status_category", "pt"."key" as "parent_key", (SELECT json_group_array(l.name) FROM task_labels tl JOIN labels l ON l.id = tl.label_id WHERE tl.task_id = t.id) as "labels_json", (SELECT json_group_object(CAST(v.field_id AS TEXT), json(v.value)) FROM task_custom_values v WHERE v.task_id = t.id) as "custom_fields_json", (SELECT coalesce(sum(te.minutes), 0) FROM time_entries te WHERE te.task_id = t.id) as "minutes_spent", (WITH RECURSIVE sub(id) AS (SELECT c.id FROM tasks c WHERE c.parent_id = t.id UNION ALL SELECT c.id FROM tasks c JOIN sub ON c.parent_id = sub.id)
    SELECT CASE WHEN count(*) = 0 THEN NULL ELSE json_object('estimate', coalesce(sum(d.estimate), 0), 'done_estimate', coalesce(sum(CASE WHEN ds.category = 'done' THEN d.estimate END), 0), 'minutes', coalesce(sum((SELECT sum(te.minutes) FROM time_entries te WHERE te.task_id = d.id)), 0)) END
    FROM sub JOIN tasks d ON d.id = sub.id JOIN statuses ds ON ds.id = d.status_id) as "rollup_json" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" inner join "task_types" as "tt" on "tt"."id" = "t"."task_type_id" inner join "priorities" as "pr" on "pr"."id" = "t"."priority_id" left join "tasks" as "pt" on "pt"."id" = "t"."parent_id";

-- taskWithExtras
select "t"."id", "t"."project_id", "t"."number", "t"."key", "t"."title", "t"."description", "t"."task_type_id", "t"."priority_id", "t"."status_id", "t"."assignee_id", "t"."parent_id", "t"."due_date", "t"."start_date", "t"."estimate", "t"."milestone_id", "t"."sprint_id", "t"."version", "t"."created_by", "t"."created_at", "t"."updated_at", (select "p"."key" from "projects" as "p" where "p"."id" = "t"."project_id") as "project_key", (select "tt"."name" from "task_types" as "tt" where "tt"."id" = "t"."task_type_id") as "task_type", (select "pr"."name" from "priorities" as "pr" where "pr"."id" = "t"."priority_id") as "priority", (select "s"."name" from "statuses" as "s" where "s"."id" = "t"."status_id") as "status", (select "s"."category" from "statuses" as "s" where "s"."id" = "t"."status_id") as "status_category", (select "pt"."key" from "tasks" as "pt" where "pt"."id" = "t"."parent_id") as "parent_key", (SELECT json_group_array(l.name) FROM task_labels tl JOIN labels l ON l.id = tl.label_id WHERE tl.task_id = t.id) as "labels_json", (SELECT json_group_object(CAST(v.field_id AS TEXT), json(v.value)) FROM task_custom_values v WHERE v.task_id = t.id) as "custom_fields_json", (SELECT coalesce(sum(te.minutes), 0) FROM time_entries te WHERE te.task_id = t.id) as "minutes_spent", (WITH RECURSIVE sub(id) AS (SELECT c.id FROM tasks c WHERE c.parent_id = t.id UNION ALL SELECT c.id FROM tasks c JOIN sub ON c.parent_id = sub.id)
    SELECT CASE WHEN count(*) = 0 THEN NULL ELSE json_object('estimate', coalesce(sum(d.estimate), 0), 'done_estimate', coalesce(sum(CASE WHEN ds.category = 'done' THEN d.estimate END), 0), 'minutes', coalesce(sum((SELECT sum(te.minutes) FROM time_entries te WHERE te.task_id = d.id)), 0)) END
    FROM sub JOIN tasks d ON d.id = sub.id JOIN statuses ds ON ds.id = d.status_id) as "rollup_json" from "tasks" as "t" where "t"."id" = ?;
-- parameters: [42]

-- tasksWithKeyAndEpoch
select "e"."value" as "auth_epoch", "k".* from "auth_epoch" as "e" left join (select "t"."id", "t"."project_id", "t"."number", "t"."key", "t"."title", "t"."description", "t"."task_type_id", "t"."priority_id", "t"."status_id", "t"."assignee_id", "t"."parent_id", "t"."due_date", "t"."start_date", "t"."estimate", "t"."milestone_id", "t"."sprint_id", "t"."version", "t"."created_by", "t"."created_at", "t"."updated_at", (select "p"."key" from "projects" as "p" where "p"."id" = "t"."project_id") as "project_key", (select "tt"."name" from "task_types" as "tt" where "tt"."id" = "t"."task_type_id") as "task_type", (select "pr"."name" from "priorities" as "pr" where "pr"."id" = "t"."priority_id") as "priority", (select "s"."name" from "statuses" as "s" where "s"."id" = "t"."status_id") as "status", (select "s"."category" from "statuses" as "s" where "s"."id" = "t"."status_id") as "status_category", (select "pt"."key" from "tasks" as "pt" where "pt"."id" = "t"."parent_id") as "parent_key", (SELECT json_group_array(l.name) FROM task_labels tl JOIN labels l ON l.id = tl.label_id WHERE tl.task_id = t.id) as "labels_json", (SELECT json_group_object(CAST(v.field_id AS TEXT), json(v.value)) FROM task_custom_values v WHERE v.task_id = t.id) as "custom_fields_json", (SELECT coalesce(sum(te.minutes), 0) FROM time_entries te WHERE te.task_id = t.id) as "minutes_spent", (WITH RECURSIVE sub(id) AS (SELECT c.id FROM tasks c WHERE c.parent_id = t.id UNION ALL SELECT c.id FROM tasks c JOIN sub ON c.parent_id = sub.id)
    SELECT CASE WHEN count(*) = 0 THEN NULL ELSE json_object('estimate', coalesce(sum(d.estimate), 0), 'done_estimate', coalesce(sum(CASE WHEN ds.category = 'done' THEN d.estimate END), 0), 'minutes', coalesce(sum((SELECT sum(te.minutes) FROM time_entries te WHERE te.task_id = d.id)), 0)) END
    FROM sub JOIN tasks d ON d.id = sub.id JOIN statuses ds ON ds.id = d.status_id) as "rollup_json" from "tasks" as "t" where "t"."key" = ?) as "k" on true where "e"."id" = ?;
-- parameters: ["PROJ-7",1]

-- taskExtrasByIds
select "t"."id", (SELECT json_group_array(l.name) FROM task_labels tl JOIN labels l ON l.id = tl.label_id WHERE tl.task_id = t.id) as "labels_json", (SELECT json_group_object(CAST(v.field_id AS TEXT), json(v.value)) FROM task_custom_values v WHERE v.task_id = t.id) as "custom_fields_json", (SELECT coalesce(sum(te.minutes), 0) FROM time_entries te WHERE te.task_id = t.id) as "minutes_spent", (WITH RECURSIVE sub(id) AS (SELECT c.id FROM tasks c WHERE c.parent_id = t.id UNION ALL SELECT c.id FROM tasks c JOIN sub ON c.parent_id = sub.id)
    SELECT CASE WHEN count(*) = 0 THEN NULL ELSE json_object('estimate', coalesce(sum(d.estimate), 0), 'done_estimate', coalesce(sum(CASE WHEN ds.category = 'done' THEN d.estimate END), 0), 'minutes', coalesce(sum((SELECT sum(te.minutes) FROM time_entries te WHERE te.task_id = d.id)), 0)) END
    FROM sub JOIN tasks d ON d.id = sub.id JOIN statuses ds ON ds.id = d.status_id) as "rollup_json" from "tasks" as "t" where "t"."id" in (?, ?);
-- parameters: [42,43]

-- visibleTasks
select "t"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? inner join "tasks" as "t" on "t"."project_id" = "p"."id" where "p"."organization_id" = ? and "p"."id" in (?, ?);
-- parameters: [3,1,10,11]

-- findVisibleTaskRef
select "t"."id" as "task_id", "t"."key" as "task_key", "p"."id", "p"."key", "p"."name", "p"."organization_id", "p"."workflow_id", "pm"."role" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? inner join "tasks" as "t" on "t"."project_id" = "p"."id" where "p"."organization_id" = ? and "p"."id" in (?, ?) and "t"."key" = ?;
-- parameters: [3,1,10,11,"PROJ-7"]

-- lockTask

-- lockTaskIfExists
select "key", "title" from "tasks" where "id" = ?;
-- parameters: [42]

-- labelIdsOf
select "label_id" from "task_labels" where "task_id" = ?;
-- parameters: [42]

-- tasksOfProject
select "t".* from "tasks" as "t" where "t"."project_id" = ?;
-- parameters: [10]
select "t".* from "tasks" as "t" where "t"."project_id" = ? and "t"."status_id" in (select "id" from "statuses" where "project_id" = ? and "name" in (?, ?)) and "t"."status_id" in (select "id" from "statuses" where "project_id" = ? and "category" in (?)) and "t"."task_type_id" in (select "id" from "task_types" where "project_id" = ? and "name" in (?)) and "t"."priority_id" in (select "id" from "priorities" where "project_id" = ? and "name" in (?)) and "t"."assignee_id" = ? and "t"."milestone_id" is null and "t"."sprint_id" = ? and "t"."parent_id" in (select "id" from "tasks" where "key" = ?) and "t"."id" in (select "tl"."task_id" from "task_labels" as "tl" inner join "labels" as "l" on "l"."id" = "tl"."label_id" where "l"."project_id" = ? and "l"."name" in (?)) and "t"."updated_at" >= ? and "t"."due_date" <= ? and "t"."due_date" >= ?;
-- parameters: [10,10,"To Do","Done",10,"todo",10,"Bug",10,"High",3,5,"PROJ-1",10,"ui","2026-11-01T00:00:00.000000Z","2026-12-31","2026-11-01"]

-- subtasksOf
select "t".* from "tasks" as "t" where "t"."parent_id" = ?;
-- parameters: [42]

-- countTasksUpTo
select count(*) as "count" from (select "t"."id" from "tasks" as "t" where "t"."project_id" = ? and "t"."status_id" in (select "id" from "statuses" where "project_id" = ? and "category" in (?)) and "t"."id" in (select "tl"."task_id" from "task_labels" as "tl" inner join "labels" as "l" on "l"."id" = "tl"."label_id" where "l"."project_id" = ? and "l"."name" in (?)) limit ?) as "m";
-- parameters: [10,10,"todo",10,"ui",1051]
-- (stops here without a row: no result)

-- listedTasks
select "t"."id", "t"."project_id", "t"."number", "t"."key", "t"."title", "t"."description", "t"."task_type_id", "t"."priority_id", "t"."status_id", "t"."assignee_id", "t"."parent_id", "t"."due_date", "t"."start_date", "t"."estimate", "t"."milestone_id", "t"."sprint_id", "t"."version", "t"."created_by", "t"."created_at", "t"."updated_at", "p"."key" as "project_key", "tt"."name" as "task_type", "pr"."name" as "priority", "s"."name" as "status", "s"."category" as "status_category", "pt"."key" as "parent_key", coalesce(t.due_date, '9999-12-31') as "due_sort" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" inner join "task_types" as "tt" on "tt"."id" = "t"."task_type_id" inner join "priorities" as "pr" on "pr"."id" = "t"."priority_id" left join "tasks" as "pt" on "pt"."id" = "t"."parent_id" where "t"."project_id" = ? and "t"."status_id" in (select "id" from "statuses" where "project_id" = ? and "category" in (?)) and "t"."id" in (select "tl"."task_id" from "task_labels" as "tl" inner join "labels" as "l" on "l"."id" = "tl"."label_id" where "l"."project_id" = ? and "l"."name" in (?));
-- parameters: [10,10,"todo",10,"ui"]

-- taskListIds
select "t"."id", coalesce(t.due_date, '9999-12-31') as "due_sort" from "tasks" as "t" left join "priorities" as "pr" on "pr"."id" = "t"."priority_id" where "t"."project_id" = ? and "t"."status_id" in (select "id" from "statuses" where "project_id" = ? and "category" in (?)) and "t"."id" in (select "tl"."task_id" from "task_labels" as "tl" inner join "labels" as "l" on "l"."id" = "tl"."label_id" where "l"."project_id" = ? and "l"."name" in (?));
-- parameters: [10,10,"todo",10,"ui"]

-- taskRowsWithExtrasByIdList
select "t"."id", "t"."project_id", "t"."number", "t"."key", "t"."title", "t"."description", "t"."task_type_id", "t"."priority_id", "t"."status_id", "t"."assignee_id", "t"."parent_id", "t"."due_date", "t"."start_date", "t"."estimate", "t"."milestone_id", "t"."sprint_id", "t"."version", "t"."created_by", "t"."created_at", "t"."updated_at", "p"."key" as "project_key", "tt"."name" as "task_type", "pr"."name" as "priority", "s"."name" as "status", "s"."category" as "status_category", "pt"."key" as "parent_key", (SELECT json_group_array(l.name) FROM task_labels tl JOIN labels l ON l.id = tl.label_id WHERE tl.task_id = t.id) as "labels_json", (SELECT json_group_object(CAST(v.field_id AS TEXT), json(v.value)) FROM task_custom_values v WHERE v.task_id = t.id) as "custom_fields_json", (SELECT coalesce(sum(te.minutes), 0) FROM time_entries te WHERE te.task_id = t.id) as "minutes_spent", (WITH RECURSIVE sub(id) AS (SELECT c.id FROM tasks c WHERE c.parent_id = t.id UNION ALL SELECT c.id FROM tasks c JOIN sub ON c.parent_id = sub.id)
    SELECT CASE WHEN count(*) = 0 THEN NULL ELSE json_object('estimate', coalesce(sum(d.estimate), 0), 'done_estimate', coalesce(sum(CASE WHEN ds.category = 'done' THEN d.estimate END), 0), 'minutes', coalesce(sum((SELECT sum(te.minutes) FROM time_entries te WHERE te.task_id = d.id)), 0)) END
    FROM sub JOIN tasks d ON d.id = sub.id JOIN statuses ds ON ds.id = d.status_id) as "rollup_json" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" inner join "task_types" as "tt" on "tt"."id" = "t"."task_type_id" inner join "priorities" as "pr" on "pr"."id" = "t"."priority_id" left join "tasks" as "pt" on "pt"."id" = "t"."parent_id" where t.id in (select value from json_each(?));
-- parameters: ["[43,42]"]

-- taskIdsByKeys
select "id", "key" from "tasks" where "project_id" = ? and "key" in (?, ?) order by "id";
-- parameters: [10,"PROJ-7","PROJ-8"]
