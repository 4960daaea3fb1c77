-- modules/changes/changes.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- taskChangeInsert
insert into "task_changes" ("project_id", "task_id", "task_key", "action", "task", "changed_at") values (?, ?, ?, ?, ?, ?);
-- parameters: [10,42,"PROJ-7","deleted",null,"2026-11-21T09:00:00.000000Z"]

-- changesVisibleTo
select "c"."id", "c"."action", "c"."task_key", "c"."task", "c"."changed_at" from "task_changes" as "c" where "c"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?));
-- parameters: [3,1,10,11]
select "c"."id", "c"."action", "c"."task_key", "c"."task", "c"."changed_at" from "task_changes" as "c" where "c"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)) and "c"."changed_at" >= ?;
-- parameters: [3,1,10,11,"2026-11-01T00:00:00.000000Z"]
