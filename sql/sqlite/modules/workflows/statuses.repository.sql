-- modules/workflows/statuses.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- statusesPage
select "s"."id", "s"."project_id" as "project", "s"."name", "s"."category", "s"."position", case when sp.default_status_id = s.id then 1 else 0 end as "is_default", "s"."created_at", "s"."updated_at" from "statuses" as "s" inner join "projects" as "sp" on "sp"."id" = "s"."project_id" where "s"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)) and "s"."project_id" = ? and "s"."category" = ? order by "s"."project_id" asc, "s"."position" asc, "s"."id" asc limit ? offset ?;
-- parameters: [3,1,10,11,10,"done",50,0]
select count(*) as "count" from "statuses" as "s" inner join "projects" as "sp" on "sp"."id" = "s"."project_id" where "s"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)) and "s"."project_id" = ? and "s"."category" = ?;
-- parameters: [3,1,10,11,10,"done"]
-- (stops here without a row: no result)

-- findVisibleStatus
select "s"."id", "s"."project_id" as "project", "s"."name", "s"."category", "s"."position", case when sp.default_status_id = s.id then 1 else 0 end as "is_default", "s"."created_at", "s"."updated_at" from "statuses" as "s" inner join "projects" as "sp" on "sp"."id" = "s"."project_id" where "s"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)) and "s"."id" = ?;
-- parameters: [3,1,10,11,4]

-- statusesInBoardOrder
select "s"."id", "s"."project_id" as "project", "s"."name", "s"."category", "s"."position", case when sp.default_status_id = s.id then 1 else 0 end as "is_default", "s"."created_at", "s"."updated_at" from "statuses" as "s" inner join "projects" as "sp" on "sp"."id" = "s"."project_id" where "s"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)) and "s"."project_id" = ? order by "s"."position", "s"."id";
-- parameters: [3,1,10,11,10]

-- statusNames
select "id", "name" from "statuses" where "project_id" = ? and "id" in (?, ?);
-- parameters: [10,4,5]

-- insertStatus
insert into "statuses" ("project_id", "name", "category", "position", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?) returning "id";
-- parameters: [10,"Blocked","in_progress",4,"2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- updateStatusFields
update "statuses" set "name" = ?, "updated_at" = ? where "id" = ?;
-- parameters: ["Shipped","2026-11-21T09:00:00.000Z",4]

-- recordStatusRename
insert into "status_renames" ("status_id", "from_name", "to_name", "renamed_at") values (?, ?, ?, ?);
-- parameters: [4,"Done","Shipped","2026-11-21T09:00:00.000Z"]

-- countTasksInStatus
select count(*) as "count" from "tasks" where "status_id" = ?;
-- parameters: [4]
-- (stops here without a row: no result)

-- defaultStatusOf
select "default_status_id" from "projects" where "id" = ?;
-- parameters: [10]
-- (stops here without a row: no result)

-- deleteStatusWithTransitions
delete from "transitions" where ("from_status_id" = ? or "to_status_id" = ?);
-- parameters: [4,4]
delete from "statuses" where "id" = ?;
-- parameters: [4]

-- writeStatusPositions
update "statuses" set "position" = ?, "updated_at" = ? where "id" = ?;
-- parameters: [0,"2026-11-21T09:00:00.000Z",5]
update "statuses" set "position" = ?, "updated_at" = ? where "id" = ?;
-- parameters: [1,"2026-11-21T09:00:00.000Z",4]

-- statusPositions
select "id", "position" from "statuses" where "project_id" = ? order by "position", "id";
-- parameters: [10]
