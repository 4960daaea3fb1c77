-- modules/views/views.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- visibleViewsPage
select "v"."id", "v"."name", "v"."query", "v"."layout", "v"."group_by", "v"."columns", "v"."project_id", "p"."key" as "project_key", "v"."shared", "v"."created_by", "u"."name" as "creator_name", "u"."handle" as "creator_handle", "v"."created_at", "v"."updated_at" from "saved_views" as "v" inner join "users" as "u" on "u"."id" = "v"."created_by" left join "projects" as "p" on "p"."id" = "v"."project_id" where "v"."organization_id" = $1 and (("v"."project_id" is null or "v"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $2 where "p"."organization_id" = $3)) and ("v"."created_by" = $4 or "v"."shared" = $5)) order by "v"."name" asc, "v"."id" asc limit $6 offset $7;
-- parameters: [1,3,1,3,1,50,0]
select count(*) as "count" from "saved_views" as "v" inner join "users" as "u" on "u"."id" = "v"."created_by" left join "projects" as "p" on "p"."id" = "v"."project_id" where "v"."organization_id" = $1 and (("v"."project_id" is null or "v"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $2 where "p"."organization_id" = $3)) and ("v"."created_by" = $4 or "v"."shared" = $5));
-- parameters: [1,3,1,3,1]
-- (stops here without a row: no result)

-- findVisibleView
select "v"."id", "v"."name", "v"."query", "v"."layout", "v"."group_by", "v"."columns", "v"."project_id", "p"."key" as "project_key", "v"."shared", "v"."created_by", "u"."name" as "creator_name", "u"."handle" as "creator_handle", "v"."created_at", "v"."updated_at" from "saved_views" as "v" inner join "users" as "u" on "u"."id" = "v"."created_by" left join "projects" as "p" on "p"."id" = "v"."project_id" where "v"."organization_id" = $1 and (("v"."project_id" is null or "v"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $2 where "p"."organization_id" = $3 and "p"."id" in ($4))) and ("v"."created_by" = $5 or "v"."shared" = $6)) and "v"."id" = $7;
-- parameters: [1,3,1,10,3,1,7]

-- insertView
insert into "saved_views" ("organization_id", "created_by", "project_id", "name", "query", "layout", "group_by", "columns", "shared", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning "id";
-- parameters: [1,3,null,"My work","assignee = me()","list",null,"[\"key\",\"title\"]",0,"2026-11-21T09:00:00.000000Z","2026-11-21T09:00:00.000000Z"]
-- (stops here without a row: no result)

-- updateView
update "saved_views" set "name" = $1, "updated_at" = $2 where "id" = $3;
-- parameters: ["Renamed","2026-11-21T09:00:00.000000Z",7]

-- deleteView
delete from "saved_views" where "id" = $1;
-- parameters: [7]
