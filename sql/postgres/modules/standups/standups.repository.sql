-- modules/standups/standups.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- worklistPage
select "t"."id", "t"."key", "t"."project_id", "p"."key" as "project", "t"."title", "s"."name" as "status", "s"."category" as "status_category", "pr"."name" as "priority", "t"."updated_at", exists (select "a"."id" from "activities" as "a" where "a"."task_id" = "t"."id" and "a"."actor_id" = $1 and "a"."created_at" >= $2) as "changed_today" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" inner join "priorities" as "pr" on "pr"."id" = "t"."priority_id" where "t"."assignee_id" = $3 and "t"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $4 where "p"."organization_id" = $5 and "p"."id" in ($6, $7)) and ("s"."category" = $8 or exists (select "a"."id" from "activities" as "a" where "a"."task_id" = "t"."id" and "a"."actor_id" = $9 and "a"."created_at" >= $10)) order by "t"."updated_at" desc, "t"."id" desc limit $11 offset $12;
-- parameters: [3,"2026-11-21T00:00:00.000Z",3,3,1,10,11,"in_progress",3,"2026-11-21T00:00:00.000Z",50,0]
select count(*) as "count" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" inner join "priorities" as "pr" on "pr"."id" = "t"."priority_id" where "t"."assignee_id" = $1 and "t"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $2 where "p"."organization_id" = $3 and "p"."id" in ($4, $5)) and ("s"."category" = $6 or exists (select "a"."id" from "activities" as "a" where "a"."task_id" = "t"."id" and "a"."actor_id" = $7 and "a"."created_at" >= $8));
-- parameters: [3,3,1,10,11,"in_progress",3,"2026-11-21T00:00:00.000Z"]
-- (stops here without a row: no result)

-- worklistSnapshot
select "t"."id", "t"."key", "t"."project_id", "p"."key" as "project", "t"."title", "s"."name" as "status", "s"."category" as "status_category", "pr"."name" as "priority", "t"."updated_at", exists (select "a"."id" from "activities" as "a" where "a"."task_id" = "t"."id" and "a"."actor_id" = $1 and "a"."created_at" >= $2) as "changed_today" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" inner join "priorities" as "pr" on "pr"."id" = "t"."priority_id" where "t"."assignee_id" = $3 and "t"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $4 where "p"."organization_id" = $5 and "p"."id" in ($6, $7)) and ("s"."category" = $8 or exists (select "a"."id" from "activities" as "a" where "a"."task_id" = "t"."id" and "a"."actor_id" = $9 and "a"."created_at" >= $10)) order by "t"."updated_at" desc, "t"."id" desc limit $11;
-- parameters: [3,"2026-11-21T00:00:00.000Z",3,3,1,10,11,"in_progress",3,"2026-11-21T00:00:00.000Z",50]

-- workedOnSince
select "t"."key", "t"."title", "s"."name" as "status", "s"."category" as "status_category", max(case when "a"."field" = $1 then 1 else 0 end) as "moved", max(case when "a"."action" = $2 then 1 else 0 end) as "created" from "activities" as "a" inner join "tasks" as "t" on "t"."id" = "a"."task_id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" where "a"."actor_id" = $3 and "a"."created_at" >= $4 and "t"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $5 where "p"."organization_id" = $6 and "p"."id" in ($7, $8)) group by "t"."id", "t"."key", "t"."title", "s"."name", "s"."category" order by min("a"."id") limit $9;
-- parameters: ["status","created",3,"2026-11-21T00:00:00.000Z",3,1,10,11,50]

-- userInOrganization
select "id" from "users" where "id" = $1 and "organization_id" = $2;
-- parameters: [4,1]

-- visibleProjectIdSet
select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4);
-- parameters: [3,1,10,11]

-- findEntryById
select "e".* from "standup_entries" as "e" where "e"."id" = $1;
-- parameters: [7]

-- entriesOfDayPage
select "e".* from "standup_entries" as "e" where "e"."organization_id" = $1 and "e"."date" = $2 and ("e"."state" != $3 or "e"."user_id" = $4) order by "e"."user_id" asc, "e"."id" asc limit $5 offset $6;
-- parameters: [1,"2026-11-21","draft",3,50,0]
select count(*) as "count" from "standup_entries" as "e" where "e"."organization_id" = $1 and "e"."date" = $2 and ("e"."state" != $3 or "e"."user_id" = $4);
-- parameters: [1,"2026-11-21","draft",3]
-- (stops here without a row: no result)

-- pastEntriesPage
select "e".* from "standup_entries" as "e" where "e"."organization_id" = $1 and "e"."user_id" = $2 and "e"."state" in ($3, $4) and "e"."date" < $5 order by "e"."date" desc, "e"."id" desc limit $6 offset $7;
-- parameters: [1,4,"submitted","skipped","2026-11-21",50,0]
select count(*) as "count" from "standup_entries" as "e" where "e"."organization_id" = $1 and "e"."user_id" = $2 and "e"."state" in ($3, $4) and "e"."date" < $5;
-- parameters: [1,4,"submitted","skipped","2026-11-21"]
-- (stops here without a row: no result)

-- lockDayEntry
insert into "standup_entries" ("organization_id", "user_id", "date", "state", "done", "doing", "tasks", "submitted_at", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) on conflict ("user_id", "date") do nothing;
-- parameters: [1,3,"2026-11-21","draft","","","[]",null,"2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z"]
select "e".* from "standup_entries" as "e" where "e"."user_id" = $1 and "e"."date" = $2 for update;
-- parameters: [3,"2026-11-21"]
-- (stops here without a row: no result)

-- updateEntry
update "standup_entries" set "state" = $1, "done" = $2, "doing" = $3, "tasks" = $4, "submitted_at" = $5, "updated_at" = $6 where "id" = $7;
-- parameters: ["skipped","","","[]",null,"2026-11-21T09:00:00.000Z",7]

-- findEntry
select "e".* from "standup_entries" as "e" where "e"."user_id" = $1 and "e"."date" = $2;
-- parameters: [3,"2026-11-21"]

-- previousSubmittedEntry
select "e".* from "standup_entries" as "e" where "e"."user_id" = $1 and "e"."state" = $2 and "e"."date" < $3 order by "e"."date" desc limit $4;
-- parameters: [3,"submitted","2026-11-21",1]

-- blockersOf
select "entry_id", "text", "task_key", "project_id", "since" from "standup_blockers" where "entry_id" in ($1, $2) order by "entry_id", "position";
-- parameters: [7,8]

-- replaceBlockers
delete from "standup_blockers" where "entry_id" = $1;
-- parameters: [7]
insert into "standup_blockers" ("entry_id", "position", "text", "task_key", "project_id", "since") values ($1, $2, $3, $4, $5, $6);
-- parameters: [7,0,"Waiting on review","WEB-12",10,"2026-11-21T09:00:00.000Z"]
