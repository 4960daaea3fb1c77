-- modules/tasks/task-writes.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- takeTaskNumber
update "projects" set "task_counter" = "task_counter" + ? where "id" = ? returning "task_counter", "default_task_type_id", "default_priority_id", "default_status_id";
-- parameters: [1,10]
-- (stops here without a row: no result)

-- insertTask
insert into "tasks" ("project_id", "number", "key", "title", "description", "task_type_id", "priority_id", "status_id", "assignee_id", "due_date", "milestone_id", "sprint_id", "parent_id", "version", "created_by", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning "id";
-- parameters: [10,7,"PROJ-7","Fix the login","",1,2,3,null,null,null,null,null,1,3,"2026-11-21T09:00:00.000000Z","2026-11-21T09:00:00.000000Z"]
-- (stops here without a row: no result)

-- updateTaskColumns
update "tasks" set "status_id" = ?, "version" = ?, "updated_at" = ? where "id" = ?;
-- parameters: [4,2,"2026-11-21T09:00:00.000000Z",42]

-- deleteTaskRow
delete from "tasks" where "id" = ?;
-- parameters: [42]

-- findTaskHead
select "id", "key", "title", "project_id" from "tasks" where "id" = ?;
-- parameters: [42]

-- childIdsOf
select "id" from "tasks" where "parent_id" = ? order by "id";
-- parameters: [42]

-- replaceLabels
delete from "task_labels" where "task_id" = ?;
-- parameters: [42]
insert into "task_labels" ("task_id", "label_id") values (?, ?), (?, ?);
-- parameters: [42,5,42,6]

-- upsertCustomValue
insert into "task_custom_values" ("task_id", "field_id", "value") values (?, ?, ?) on conflict ("task_id", "field_id") do update set "value" = ?;
-- parameters: [42,9,"\"text\"","\"text\""]

-- deleteCustomValue
delete from "task_custom_values" where "task_id" = ? and "field_id" = ?;
-- parameters: [42,9]

-- insertTaskWriteRecords
insert into "activities" ("task_id", "actor_id", "action", "field", "from_value", "to_value", "created_at") values (?, ?, ?, ?, ?, ?, ?);
-- parameters: [42,3,"updated","status","\"To Do\"","\"Done\"","2026-11-21T09:00:00.000000Z"]
insert into "task_changes" ("project_id", "task_id", "task_key", "action", "task", "changed_at") values (?, ?, ?, ?, ?, ?) returning "id";
-- parameters: [10,42,"PROJ-7","updated","{}","2026-11-21T09:00:00.000000Z"]
-- (stops here without a row: no result)
