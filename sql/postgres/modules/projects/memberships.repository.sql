-- modules/projects/memberships.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- membershipsPage
select "m"."id", "m"."project_id" as "project", "p"."key" as "project_key", "m"."user_id" as "user", "u"."name" as "user_name", "u"."handle" as "user_handle", "u"."kind" as "user_kind", "m"."role", "m"."created_at", "m"."updated_at" from "project_memberships" as "m" inner join "projects" as "p" on "p"."id" = "m"."project_id" inner join "users" as "u" on "u"."id" = "m"."user_id" where "m"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "m"."project_id" = $5 order by "m"."id" asc, "m"."id" asc limit $6 offset $7;
-- parameters: [3,1,10,11,10,50,0]
select count(*) as "count" from "project_memberships" as "m" inner join "projects" as "p" on "p"."id" = "m"."project_id" inner join "users" as "u" on "u"."id" = "m"."user_id" where "m"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "m"."project_id" = $5;
-- parameters: [3,1,10,11,10]
-- (stops here without a row: no result)

-- findVisibleMembership
select "m"."id", "m"."project_id" as "project", "p"."key" as "project_key", "m"."user_id" as "user", "u"."name" as "user_name", "u"."handle" as "user_handle", "u"."kind" as "user_kind", "m"."role", "m"."created_at", "m"."updated_at" from "project_memberships" as "m" inner join "projects" as "p" on "p"."id" = "m"."project_id" inner join "users" as "u" on "u"."id" = "m"."user_id" where "m"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "m"."id" = $5;
-- parameters: [3,1,10,11,7]

-- findUserOfOrganization
select "id" from "users" where "id" = $1 and "organization_id" = $2;
-- parameters: [3,1]

-- insertMembership
insert into "project_memberships" ("project_id", "user_id", "role", "created_at", "updated_at") values ($1, $2, $3, $4, $5) returning "id";
-- parameters: [10,3,"member","2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- findOtherAdmin
select "id" from "project_memberships" where "project_id" = $1 and "role" = $2 and "id" != $3;
-- parameters: [10,"admin",7]

-- updateMembershipRole
update "project_memberships" set "role" = $1, "updated_at" = $2 where "id" = $3;
-- parameters: ["viewer","2026-11-21T09:00:00.000Z",7]

-- deleteMembershipRow
delete from "project_memberships" where "id" = $1;
-- parameters: [7]
