-- modules/accounts/accounts.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- insertOrganization
insert into "organizations" ("name", "slug", "created_at") values ($1, $2, $3) returning "id", "slug", "name";
-- parameters: ["Acme","acme","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- findOrganizationBySlug
select "id", "slug", "name" from "organizations" where "slug" = $1;
-- parameters: ["acme"]

-- insertUser
insert into "users" ("organization_id", "kind", "name", "email", "handle", "role", "created_at") values ($1, $2, $3, $4, $5, $6, $7) returning "id", "organization_id", "kind", "name", "email", "role";
-- parameters: [1,"human","Ada","ada@example.test","ada","member","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- findAccount
select "id", "organization_id", "kind", "name" from "users" where "id" = $1;
-- parameters: [3]

-- projectsByKeys
select "id", "key" from "projects" where "organization_id" = $1 and "key" in ($2, $3);
-- parameters: [1,"WEB","OPS"]
select "id", "key" from "projects" where "organization_id" = $1 and "key" in ($2);
-- parameters: [1,""]

-- findMembership
select "id", "role" from "project_memberships" where "project_id" = $1 and "user_id" = $2;
-- parameters: [10,3]

-- updateMembershipRole
update "project_memberships" set "role" = $1, "updated_at" = $2 where "id" = $3;
-- parameters: ["viewer","2026-11-21T09:00:00.000Z",8]

-- visibleProjectsWithRole
select "p"."id", "p"."key", "p"."name", "pm"."role" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4) order by "p"."key";
-- parameters: [3,1,10,11]

-- projectKeysOf
select "key" from "projects" where "id" in ($1, $2) order by "key";
-- parameters: [10,11]
