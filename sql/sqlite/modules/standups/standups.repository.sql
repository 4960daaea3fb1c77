-- modules/standups/standups.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- worklistPage
select "t"."id", "t"."key", "t"."project_id", "p"."key" as "project", "t"."title", "s"."name" as "status", "s"."category" as "status_category", "pr"."name" as "priority", "t"."updated_at", exists (select "a"."id" from "activities" as "a" where "a"."task_id" = "t"."id" and "a"."actor_id" = ? and "a"."created_at" >= ?) as "changed_today" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" inner join "priorities" as "pr" on "pr"."id" = "t"."priority_id" where "t"."assignee_id" = ? and "t"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)) and ("s"."category" = ? or exists (select "a"."id" from "activities" as "a" where "a"."task_id" = "t"."id" and "a"."actor_id" = ? and "a"."created_at" >= ?)) order by "t"."updated_at" desc, "t"."id" desc limit ? offset ?;
-- parameters: [3,"2026-11-21T00:00:00.000Z",3,3,1,10,11,"in_progress",3,"2026-11-21T00:00:00.000Z",50,0]
select count(*) as "count" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" inner join "priorities" as "pr" on "pr"."id" = "t"."priority_id" where "t"."assignee_id" = ? and "t"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)) and ("s"."category" = ? or exists (select "a"."id" from "activities" as "a" where "a"."task_id" = "t"."id" and "a"."actor_id" = ? and "a"."created_at" >= ?));
-- parameters: [3,3,1,10,11,"in_progress",3,"2026-11-21T00:00:00.000Z"]
-- (stops here without a row: no result)

-- worklistSnapshot
select "t"."id", "t"."key", "t"."project_id", "p"."key" as "project", "t"."title", "s"."name" as "status", "s"."category" as "status_category", "pr"."name" as "priority", "t"."updated_at", exists (select "a"."id" from "activities" as "a" where "a"."task_id" = "t"."id" and "a"."actor_id" = ? and "a"."created_at" >= ?) as "changed_today" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" inner join "priorities" as "pr" on "pr"."id" = "t"."priority_id" where "t"."assignee_id" = ? and "t"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)) and ("s"."category" = ? or exists (select "a"."id" from "activities" as "a" where "a"."task_id" = "t"."id" and "a"."actor_id" = ? and "a"."created_at" >= ?)) order by "t"."updated_at" desc, "t"."id" desc limit ?;
-- parameters: [3,"2026-11-21T00:00:00.000Z",3,3,1,10,11,"in_progress",3,"2026-11-21T00:00:00.000Z",50]

-- workedOnSince
select "t"."key", "t"."title", "s"."name" as "status", "s"."category" as "status_category", max(case when "a"."field" = ? then 1 else 0 end) as "moved", max(case when "a"."action" = ? then 1 else 0 end) as "created" from "activities" as "a" inner join "tasks" as "t" on "t"."id" = "a"."task_id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" where "a"."actor_id" = ? and "a"."created_at" >= ? and "t"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)) group by "t"."id", "t"."key", "t"."title", "s"."name", "s"."category" order by min("a"."id") limit ?;
-- parameters: ["status","created",3,"2026-11-21T00:00:00.000Z",3,1,10,11,50]

-- userInOrganization
select "id" from "users" where "id" = ? and "organization_id" = ?;
-- parameters: [4,1]

-- visibleProjectIdSet
select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?);
-- parameters: [3,1,10,11]

-- findEntryById
select "e".* from "standup_entries" as "e" where "e"."id" = ?;
-- parameters: [7]

-- entriesOfDayPage
select "e".* from "standup_entries" as "e" where "e"."organization_id" = ? and "e"."date" = ? and ("e"."state" != ? or "e"."user_id" = ?) order by "e"."user_id" asc, "e"."id" asc limit ? offset ?;
-- parameters: [1,"2026-11-21","draft",3,50,0]
select count(*) as "count" from "standup_entries" as "e" where "e"."organization_id" = ? and "e"."date" = ? and ("e"."state" != ? or "e"."user_id" = ?);
-- parameters: [1,"2026-11-21","draft",3]
-- (stops here without a row: no result)

-- pastEntriesPage
select "e".* from "standup_entries" as "e" where "e"."organization_id" = ? and "e"."user_id" = ? and "e"."state" in (?, ?) and "e"."date" < ? order by "e"."date" desc, "e"."id" desc limit ? offset ?;
-- parameters: [1,4,"submitted","skipped","2026-11-21",50,0]
select count(*) as "count" from "standup_entries" as "e" where "e"."organization_id" = ? and "e"."user_id" = ? and "e"."state" in (?, ?) and "e"."date" < ?;
-- parameters: [1,4,"submitted","skipped","2026-11-21"]
-- (stops here without a row: no result)

-- lockDayEntry
insert into "standup_entries" ("organization_id", "user_id", "date", "state", "done", "doing", "tasks", "submitted_at", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("user_id", "date") do nothing;
-- parameters: [1,3,"2026-11-21","draft","","","[]",null,"2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z"]
select "e".* from "standup_entries" as "e" where "e"."user_id" = ? and "e"."date" = ?;
-- parameters: [3,"2026-11-21"]
-- (stops here without a row: no result)

-- updateEntry
update "standup_entries" set "state" = ?, "done" = ?, "doing" = ?, "tasks" = ?, "submitted_at" = ?, "updated_at" = ? where "id" = ?;
-- parameters: ["skipped","","","[]",null,"2026-11-21T09:00:00.000Z",7]

-- findEntry
select "e".* from "standup_entries" as "e" where "e"."user_id" = ? and "e"."date" = ?;
-- parameters: [3,"2026-11-21"]

-- previousSubmittedEntry
select "e".* from "standup_entries" as "e" where "e"."user_id" = ? and "e"."state" = ? and "e"."date" < ? order by "e"."date" desc limit ?;
-- parameters: [3,"submitted","2026-11-21",1]

-- blockersOf
select "entry_id", "text", "task_key", "project_id", "since" from "standup_blockers" where "entry_id" in (?, ?) order by "entry_id", "position";
-- parameters: [7,8]

-- replaceBlockers
delete from "standup_blockers" where "entry_id" = ?;
-- parameters: [7]
insert into "standup_blockers" ("entry_id", "position", "text", "task_key", "project_id", "since") values (?, ?, ?, ?, ?, ?);
-- parameters: [7,0,"Waiting on review","WEB-12",10,"2026-11-21T09:00:00.000Z"]
