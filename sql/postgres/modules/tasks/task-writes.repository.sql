-- modules/tasks/task-writes.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- takeTaskNumber
update "projects" set "task_counter" = "task_counter" + $1 where "id" = $2 returning "task_counter", "default_task_type_id", "default_priority_id", "default_status_id";
-- parameters: [1,10]
-- (stops here without a row: no result)

-- insertTask
insert into "tasks" ("project_id", "number", "key", "title", "description", "task_type_id", "priority_id", "status_id", "assignee_id", "due_date", "milestone_id", "sprint_id", "parent_id", "version", "created_by", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) returning "id";
-- parameters: [10,7,"PROJ-7","Fix the login","",1,2,3,null,null,null,null,null,1,3,"2026-11-21T09:00:00.000000Z","2026-11-21T09:00:00.000000Z"]
-- (stops here without a row: no result)

-- updateTaskColumns
update "tasks" set "status_id" = $1, "version" = $2, "updated_at" = $3 where "id" = $4;
-- parameters: [4,2,"2026-11-21T09:00:00.000000Z",42]

-- deleteTaskRow
delete from "tasks" where "id" = $1;
-- parameters: [42]

-- findTaskHead
select "id", "key", "title", "project_id" from "tasks" where "id" = $1;
-- parameters: [42]

-- childIdsOf
select "id" from "tasks" where "parent_id" = $1 order by "id";
-- parameters: [42]

-- replaceLabels
delete from "task_labels" where "task_id" = $1;
-- parameters: [42]
insert into "task_labels" ("task_id", "label_id") values ($1, $2), ($3, $4);
-- parameters: [42,5,42,6]

-- upsertCustomValue
insert into "task_custom_values" ("task_id", "field_id", "value") values ($1, $2, $3) on conflict ("task_id", "field_id") do update set "value" = $4;
-- parameters: [42,9,"\"text\"","\"text\""]

-- deleteCustomValue
delete from "task_custom_values" where "task_id" = $1 and "field_id" = $2;
-- parameters: [42,9]

-- insertTaskWriteRecords
with "written_0" as (insert into "activities" ("task_id", "actor_id", "action", "field", "from_value", "to_value", "created_at") values ($1, $2, $3, $4, $5, $6, $7)), "written_1" as (insert into "task_changes" ("project_id", "task_id", "task_key", "action", "task", "changed_at") values ($8, $9, $10, $11, $12, $13) returning "id"), "written_2" as (insert into "event_outbox" ("event_id", "type", "organization_id", "project_id", "actor_id", "correlation_id", "envelope", "occurred_at", "fanned_out_at", "task_change_id") values ($14, $15, $16, $17, $18, $19, $20, $21, $22, (select id from "written_1")), ($23, $24, $25, $26, $27, $28, $29, $30, $31, (select id from "written_1"))) select 1;
-- parameters: [42,3,"updated","status","\"To Do\"","\"Done\"","2026-11-21T09:00:00.000000Z",10,42,"PROJ-7","updated","{}","2026-11-21T09:00:00.000000Z","evt_1","task.updated",1,10,3,"req-1","{}","2026-11-21T09:00:00.000000Z",null,"evt_2","task.status_changed",1,10,3,"req-1","{}","2026-11-21T09:00:00.000000Z",null]
