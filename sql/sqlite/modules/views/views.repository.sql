-- modules/views/views.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- visibleViewsPage
select "v"."id", "v"."name", "v"."query", "v"."layout", "v"."group_by", "v"."columns", "v"."project_id", "p"."key" as "project_key", "v"."shared", "v"."created_by", "u"."name" as "creator_name", "u"."handle" as "creator_handle", "v"."created_at", "v"."updated_at" from "saved_views" as "v" inner join "users" as "u" on "u"."id" = "v"."created_by" left join "projects" as "p" on "p"."id" = "v"."project_id" where "v"."organization_id" = ? and (("v"."project_id" is null or "v"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ?)) and ("v"."created_by" = ? or "v"."shared" = ?)) order by "v"."name" asc, "v"."id" asc limit ? offset ?;
-- parameters: [1,3,1,3,1,50,0]
select count(*) as "count" from "saved_views" as "v" inner join "users" as "u" on "u"."id" = "v"."created_by" left join "projects" as "p" on "p"."id" = "v"."project_id" where "v"."organization_id" = ? and (("v"."project_id" is null or "v"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ?)) and ("v"."created_by" = ? or "v"."shared" = ?));
-- parameters: [1,3,1,3,1]
-- (stops here without a row: no result)

-- findVisibleView
select "v"."id", "v"."name", "v"."query", "v"."layout", "v"."group_by", "v"."columns", "v"."project_id", "p"."key" as "project_key", "v"."shared", "v"."created_by", "u"."name" as "creator_name", "u"."handle" as "creator_handle", "v"."created_at", "v"."updated_at" from "saved_views" as "v" inner join "users" as "u" on "u"."id" = "v"."created_by" left join "projects" as "p" on "p"."id" = "v"."project_id" where "v"."organization_id" = ? and (("v"."project_id" is null or "v"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?))) and ("v"."created_by" = ? or "v"."shared" = ?)) and "v"."id" = ?;
-- parameters: [1,3,1,10,3,1,7]

-- insertView
insert into "saved_views" ("organization_id", "created_by", "project_id", "name", "query", "layout", "group_by", "columns", "shared", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning "id";
-- parameters: [1,3,null,"My work","assignee = me()","list",null,"[\"key\",\"title\"]",0,"2026-11-21T09:00:00.000000Z","2026-11-21T09:00:00.000000Z"]
-- (stops here without a row: no result)

-- updateView
update "saved_views" set "name" = ?, "updated_at" = ? where "id" = ?;
-- parameters: ["Renamed","2026-11-21T09:00:00.000000Z",7]

-- deleteView
delete from "saved_views" where "id" = ?;
-- parameters: [7]
