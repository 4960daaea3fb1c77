-- modules/changes/changes.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- taskChangeInsert
insert into "task_changes" ("project_id", "task_id", "task_key", "action", "task", "changed_at") values (?, ?, ?, ?, ?, ?);
-- parameters: [10,42,"PROJ-7","deleted",null,"2026-11-21T09:00:00.000000Z"]

-- changesPage
select "c"."id", "c"."action", "c"."task_key", "c"."task", "c"."changed_at" from "task_changes" as "c" where "c"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)) and "c"."id" > ? order by "c"."id" asc limit ?;
-- parameters: [3,1,10,11,0,51]
select "c"."id", "c"."action", "c"."task_key", "c"."task", "c"."changed_at" from "task_changes" as "c" where "c"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)) and "c"."changed_at" >= ? and "c"."id" > ? order by "c"."id" asc limit ?;
-- parameters: [3,1,10,11,"2026-11-01T00:00:00.000000Z",0,51]

-- changesFeedHorizon
select "purged_before", "generation" from "retention_horizons" where "name" = ?;
-- parameters: ["task_changes"]

-- changeStatesPage
select "c"."id", "c"."action", "c"."task_key", "c"."task", "c"."changed_at", "c"."task_id", "c"."before" from "task_changes" as "c" where "c"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)) and "c"."id" > ? order by "c"."id" asc limit ?;
-- parameters: [3,1,10,11,0,51]

-- changesByIds
select "id", "task_id", "action", "task", "before" from "task_changes" where "id" in (?, ?);
-- parameters: [7,9]

-- latestChangeIdsOf
select "t"."key", max("c"."id") as "id" from "tasks" as "t" inner join "task_changes" as "c" on "c"."task_id" = "t"."id" where "t"."key" in (?, ?) group by "t"."key";
-- parameters: ["PROJ-7","PROJ-9"]
