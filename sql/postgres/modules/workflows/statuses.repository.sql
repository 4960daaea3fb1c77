-- modules/workflows/statuses.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- statusesPage
select "s"."id", "s"."project_id" as "project", "s"."name", "s"."category", "s"."position", case when sp.default_status_id = s.id then 1 else 0 end as "is_default", "s"."created_at", "s"."updated_at" from "statuses" as "s" inner join "projects" as "sp" on "sp"."id" = "s"."project_id" where "s"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "s"."project_id" = $5 and "s"."category" = $6 order by "s"."project_id" asc, "s"."position" asc, "s"."id" asc limit $7 offset $8;
-- parameters: [3,1,10,11,10,"done",50,0]
select count(*) as "count" from "statuses" as "s" inner join "projects" as "sp" on "sp"."id" = "s"."project_id" where "s"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "s"."project_id" = $5 and "s"."category" = $6;
-- parameters: [3,1,10,11,10,"done"]
-- (stops here without a row: no result)

-- findVisibleStatus
select "s"."id", "s"."project_id" as "project", "s"."name", "s"."category", "s"."position", case when sp.default_status_id = s.id then 1 else 0 end as "is_default", "s"."created_at", "s"."updated_at" from "statuses" as "s" inner join "projects" as "sp" on "sp"."id" = "s"."project_id" where "s"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "s"."id" = $5;
-- parameters: [3,1,10,11,4]

-- statusesInBoardOrder
select "s"."id", "s"."project_id" as "project", "s"."name", "s"."category", "s"."position", case when sp.default_status_id = s.id then 1 else 0 end as "is_default", "s"."created_at", "s"."updated_at" from "statuses" as "s" inner join "projects" as "sp" on "sp"."id" = "s"."project_id" where "s"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "s"."project_id" = $5 order by "s"."position", "s"."id";
-- parameters: [3,1,10,11,10]

-- statusNames
select "id", "name" from "statuses" where "project_id" = $1 and "id" in ($2, $3);
-- parameters: [10,4,5]

-- insertStatus
insert into "statuses" ("project_id", "name", "category", "position", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6) returning "id";
-- parameters: [10,"Blocked","in_progress",4,"2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- updateStatusFields
update "statuses" set "name" = $1, "updated_at" = $2 where "id" = $3;
-- parameters: ["Shipped","2026-11-21T09:00:00.000Z",4]

-- recordStatusRename
insert into "status_renames" ("status_id", "from_name", "to_name", "renamed_at") values ($1, $2, $3, $4);
-- parameters: [4,"Done","Shipped","2026-11-21T09:00:00.000Z"]

-- countTasksInStatus
select count(*) as "count" from "tasks" where "status_id" = $1;
-- parameters: [4]
-- (stops here without a row: no result)

-- defaultStatusOf
select "default_status_id" from "projects" where "id" = $1;
-- parameters: [10]
-- (stops here without a row: no result)

-- deleteStatusWithTransitions
delete from "transitions" where ("from_status_id" = $1 or "to_status_id" = $2);
-- parameters: [4,4]
delete from "statuses" where "id" = $1;
-- parameters: [4]

-- writeStatusPositions
update "statuses" set "position" = $1, "updated_at" = $2 where "id" = $3;
-- parameters: [0,"2026-11-21T09:00:00.000Z",5]
update "statuses" set "position" = $1, "updated_at" = $2 where "id" = $3;
-- parameters: [1,"2026-11-21T09:00:00.000Z",4]

-- statusPositions
select "id", "position" from "statuses" where "project_id" = $1 order by "position", "id";
-- parameters: [10]
