-- modules/query/query.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- taskCondition
select "t"."id" from "tasks" as "t" where "t"."project_id" in ($1, $2) and ("t"."project_id" in ($3, $4) and "t"."key" in ($5) and "t"."status_id" in ($6, $7) and not "t"."status_id" in (select "id" from "statuses" where "category" in ($8)) and ("t"."assignee_id" is not null and "t"."assignee_id" in ($9)) and "t"."id" in (select "task_id" from "task_followers" where "user_id" in ($10)) and "t"."id" in (select "task_id" from "task_labels" where "label_id" in ($11)) and ("t"."sprint_id" is not null and "t"."sprint_id" in ($12)) and 1 = 0 and not exists (select "el"."id" from "task_labels" as "el" where "el"."task_id" = "t"."id") and ("t"."due_date" is not null and "t"."due_date" <= $13) and "t"."updated_at" < $14 and "t"."search_vector" @@ to_tsquery('english', $15) and "t"."search_vector" @@ to_tsquery('english', $16) and exists (select "bl"."id" from "task_links" as "bl" inner join "tasks" as "bt" on "bt"."id" = "bl"."from_task_id" inner join "statuses" as "bs" on "bs"."id" = "bt"."status_id" where "bl"."to_task_id" = "t"."id" and "bl"."type" = $17 and "bs"."category" <> $18 and "bt"."project_id" in ($19, $20)) and not exists (select "cv"."id" from "task_custom_values" as "cv" where "cv"."task_id" = "t"."id" and "cv"."field_id" = $21) and "t"."id" in (select "cv"."task_id" from "task_custom_values" as "cv" where "cv"."field_id" = $22 and "cv"."value" in ($23)) and "t"."id" in (select "cv"."task_id" from "task_custom_values" as "cv" where "cv"."field_id" = $24 and exists (select 1 from jsonb_array_elements_text(cv.value::jsonb) as o(id) where o.id in ($25, $26))) and "t"."id" in (select "cv"."task_id" from "task_custom_values" as "cv" where "cv"."field_id" = $27 and cast(cv.value as double precision) >= $28) and (1 = 0 or ("t"."parent_id" is not null and "t"."parent_id" in ($29))));
-- parameters: [10,11,10,11,"WEB-1",1,2,"done",3,3,5,2,"2026-11-22","2026-11-14T09:00:00.000000Z","login & timeout","login:B","blocks","done",10,11,4,4,"\"hello\"",5,"1","2",6,3,9]

-- tasksMatching
select "t"."id" from "tasks" as "t" where "t"."project_id" in ($1);
-- parameters: [10]

-- whereQuery
select "t"."id" from "tasks" as "t" where exists (select "bl"."id" from "task_links" as "bl" inner join "tasks" as "bt" on "bt"."id" = "bl"."from_task_id" inner join "statuses" as "bs" on "bs"."id" = "bt"."status_id" where "bl"."to_task_id" = "t"."id" and "bl"."type" = $1 and "bs"."category" <> $2 and "bt"."project_id" in ($3));
-- parameters: ["blocks","done",10]

-- orderKeys
select "t"."id" as "id", (select pr.position from priorities pr where pr.id = t.priority_id) as "o0", case when "t"."due_date" is null then 1 else 0 end as "o1", "t"."due_date" as "o2", "t"."title" collate "C" as "o3", (select "p"."key" collate "C" from projects p where p.id = t.project_id) as "o4", "t"."number" as "o5" from "tasks" as "t";

-- orderedTaskIds
select "t"."id" as "id", "t"."created_at" as "o0", (select "p"."key" collate "C" from projects p where p.id = t.project_id) as "o1", "t"."number" as "o2" from "tasks" as "t";

-- queryLookups
select "id", "project_id", "name", "position" from "statuses" where "project_id" in ($1, $2);
-- parameters: [10,11]
select "id", "project_id", "name" from "labels" where "project_id" in ($1, $2);
-- parameters: [10,11]
select "id", "handle", "email" from "users" where "organization_id" = $1 and ("handle" in ($2) or lower("email") in ($3) or "id" in ($4));
-- parameters: [1,"alice","alice",3]
select "id", "project_id", "name" from "milestones" where "project_id" in ($1);
-- parameters: [10]
select "id", "project_id", "name", "state" from "sprints" where "project_id" in ($1);
-- parameters: [10]
select "id", "key" from "tasks" where "project_id" in ($1) and "key" in ($2);
-- parameters: [10,"WEB-1"]
select "f"."id", "f"."name", "f"."type" from "custom_fields" as "f" where "f"."organization_id" = $1 and ("f"."all_projects" = $2 or not exists (select "fp"."project_id" from "custom_field_projects" as "fp" where "fp"."field_id" = "f"."id") or exists (select "fp"."project_id" from "custom_field_projects" as "fp" where "fp"."field_id" = "f"."id" and "fp"."project_id" in ($3, $4)));
-- parameters: [1,1,10,11]

-- taskFactsExtras
select "task_id", "user_id" from "task_followers" where "task_id" in ($1, $2);
-- parameters: [1,2]
select "bl"."to_task_id" from "task_links" as "bl" inner join "tasks" as "bt" on "bt"."id" = "bl"."from_task_id" inner join "statuses" as "bs" on "bs"."id" = "bt"."status_id" where "bl"."to_task_id" in ($1, $2) and "bl"."type" = $3 and "bs"."category" <> $4 and "bt"."project_id" in ($5);
-- parameters: [1,2,"blocks","done",10]
