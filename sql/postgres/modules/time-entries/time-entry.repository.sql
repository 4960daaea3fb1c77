-- modules/time-entries/time-entry.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- entriesOfTask
select "e"."id", "e"."task_id", "t"."key" as "task_key", "e"."user_id", "e"."minutes", "e"."date", "e"."note", "e"."created_at", "e"."updated_at" from "time_entries" as "e" inner join "tasks" as "t" on "t"."id" = "e"."task_id" where "e"."task_id" = $1 order by "e"."date" asc, "e"."id" asc limit $2 offset $3;
-- parameters: [42,50,0]
select count(*) as "count" from "time_entries" as "e" inner join "tasks" as "t" on "t"."id" = "e"."task_id" where "e"."task_id" = $1;
-- parameters: [42]
-- (stops here without a row: no result)

-- findEntry
select "e"."id", "e"."task_id", "t"."key" as "task_key", "e"."user_id", "e"."minutes", "e"."date", "e"."note", "e"."created_at", "e"."updated_at" from "time_entries" as "e" inner join "tasks" as "t" on "t"."id" = "e"."task_id" where "e"."id" = $1;
-- parameters: [7]

-- findVisibleEntry
select "e"."id", "e"."task_id", "e"."user_id", "p"."id" as "project_id", "pm"."role" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 inner join "tasks" as "t" on "t"."project_id" = "p"."id" inner join "time_entries" as "e" on "e"."task_id" = "t"."id" where "p"."organization_id" = $2 and "p"."id" in ($3, $4) and "e"."id" = $5;
-- parameters: [3,1,10,11,7]

-- insertEntry
insert into "time_entries" ("task_id", "user_id", "minutes", "date", "note", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7) returning "id";
-- parameters: [42,3,30,"2026-11-21","Review","2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- updateEntry
update "time_entries" set "minutes" = $1, "note" = $2, "updated_at" = $3 where "id" = $4;
-- parameters: [45,"Longer review","2026-11-21T09:00:00.000Z",7]

-- deleteEntry
delete from "time_entries" where "id" = $1;
-- parameters: [7]
