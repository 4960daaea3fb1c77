-- modules/query/query.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- taskCondition
select "t"."id" from "tasks" as "t" where "t"."project_id" in (?, ?) and ("t"."project_id" in (?, ?) and "t"."key" in (?) and "t"."status_id" in (?, ?) and not "t"."status_id" in (select "id" from "statuses" where "category" in (?)) and ("t"."assignee_id" is not null and "t"."assignee_id" in (?)) and "t"."id" in (select "task_id" from "task_followers" where "user_id" in (?)) and "t"."id" in (select "task_id" from "task_labels" where "label_id" in (?)) and ("t"."sprint_id" is not null and "t"."sprint_id" in (?)) and 1 = 0 and not exists (select "el"."id" from "task_labels" as "el" where "el"."task_id" = "t"."id") and ("t"."due_date" is not null and "t"."due_date" <= ?) and "t"."updated_at" < ? and "t"."id" in (select rowid from tasks_fts where tasks_fts match ?) and "t"."id" in (select rowid from tasks_fts where tasks_fts match ?) and exists (select "bl"."id" from "task_links" as "bl" inner join "tasks" as "bt" on "bt"."id" = "bl"."from_task_id" inner join "statuses" as "bs" on "bs"."id" = "bt"."status_id" where "bl"."to_task_id" = "t"."id" and "bl"."type" = ? and "bs"."category" <> ? and "bt"."project_id" in (?, ?)) and not exists (select "cv"."id" from "task_custom_values" as "cv" where "cv"."task_id" = "t"."id" and "cv"."field_id" = ?) and "t"."id" in (select "cv"."task_id" from "task_custom_values" as "cv" where "cv"."field_id" = ? and "cv"."value" in (?)) and "t"."id" in (select "cv"."task_id" from "task_custom_values" as "cv" where "cv"."field_id" = ? and exists (select 1 from json_each(cv.value) as o where o.value in (?, ?))) and "t"."id" in (select "cv"."task_id" from "task_custom_values" as "cv" where "cv"."field_id" = ? and cast(cv.value as real) >= ?) and (1 = 0 or ("t"."parent_id" is not null and "t"."parent_id" in (?))));
-- parameters: [10,11,10,11,"WEB-1",1,2,"done",3,3,5,2,"2026-11-22","2026-11-14T09:00:00.000000Z","{title description} : (\"login\" \"timeout\")","description : (\"login\")","blocks","done",10,11,4,4,"\"hello\"",5,1,2,6,3,9]

-- tasksMatching
select "t"."id" from "tasks" as "t" where "t"."project_id" in (?);
-- parameters: [10]

-- whereQuery
select "t"."id" from "tasks" as "t" where exists (select "bl"."id" from "task_links" as "bl" inner join "tasks" as "bt" on "bt"."id" = "bl"."from_task_id" inner join "statuses" as "bs" on "bs"."id" = "bt"."status_id" where "bl"."to_task_id" = "t"."id" and "bl"."type" = ? and "bs"."category" <> ? and "bt"."project_id" in (?));
-- parameters: ["blocks","done",10]

-- orderKeys
select "t"."id" as "id", (select pr.position from priorities pr where pr.id = t.priority_id) as "o0", case when "t"."due_date" is null then 1 else 0 end as "o1", "t"."due_date" as "o2", "t"."title" as "o3", (select "p"."key" from projects p where p.id = t.project_id) as "o4", "t"."number" as "o5" from "tasks" as "t";

-- orderedTaskIds
select "t"."id" as "id", "t"."created_at" as "o0", (select "p"."key" from projects p where p.id = t.project_id) as "o1", "t"."number" as "o2" from "tasks" as "t";

-- queryLookups
select "id", "project_id", "name", "position" from "statuses" where "project_id" in (?, ?);
-- parameters: [10,11]
select "id", "project_id", "name" from "labels" where "project_id" in (?, ?);
-- parameters: [10,11]
select "id", "handle", "email" from "users" where "organization_id" = ? and ("handle" in (?) or lower("email") in (?) or "id" in (?));
-- parameters: [1,"alice","alice",3]
select "id", "project_id", "name" from "milestones" where "project_id" in (?);
-- parameters: [10]
select "id", "project_id", "name", "state" from "sprints" where "project_id" in (?);
-- parameters: [10]
select "id", "key" from "tasks" where "project_id" in (?) and "key" in (?);
-- parameters: [10,"WEB-1"]
select "f"."id", "f"."name", "f"."type" from "custom_fields" as "f" where "f"."organization_id" = ? and ("f"."all_projects" = ? or not exists (select "fp"."project_id" from "custom_field_projects" as "fp" where "fp"."field_id" = "f"."id") or exists (select "fp"."project_id" from "custom_field_projects" as "fp" where "fp"."field_id" = "f"."id" and "fp"."project_id" in (?, ?)));
-- parameters: [1,1,10,11]

-- taskFactsExtras
select "task_id", "user_id" from "task_followers" where "task_id" in (?, ?);
-- parameters: [1,2]
select "bl"."to_task_id" from "task_links" as "bl" inner join "tasks" as "bt" on "bt"."id" = "bl"."from_task_id" inner join "statuses" as "bs" on "bs"."id" = "bt"."status_id" where "bl"."to_task_id" in (?, ?) and "bl"."type" = ? and "bs"."category" <> ? and "bt"."project_id" in (?);
-- parameters: [1,2,"blocks","done",10]
