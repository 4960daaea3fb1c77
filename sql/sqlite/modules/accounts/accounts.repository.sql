-- modules/accounts/accounts.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- insertOrganization
insert into "organizations" ("name", "slug", "created_at") values (?, ?, ?) returning "id", "slug", "name";
-- parameters: ["Acme","acme","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- findOrganizationBySlug
select "id", "slug", "name" from "organizations" where "slug" = ?;
-- parameters: ["acme"]

-- insertUser
insert into "users" ("organization_id", "kind", "name", "email", "handle", "role", "created_at") values (?, ?, ?, ?, ?, ?, ?) returning "id", "organization_id", "kind", "name", "email", "role";
-- parameters: [1,"human","Ada","ada@example.test","ada","member","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- findAccount
select "id", "organization_id", "kind", "name" from "users" where "id" = ?;
-- parameters: [3]

-- projectsByKeys
select "id", "key" from "projects" where "organization_id" = ? and "key" in (?, ?);
-- parameters: [1,"WEB","OPS"]
select "id", "key" from "projects" where "organization_id" = ? and "key" in (?);
-- parameters: [1,""]

-- findMembership
select "id", "role" from "project_memberships" where "project_id" = ? and "user_id" = ?;
-- parameters: [10,3]

-- updateMembershipRole
update "project_memberships" set "role" = ?, "updated_at" = ? where "id" = ?;
-- parameters: ["viewer","2026-11-21T09:00:00.000Z",8]

-- visibleProjectsWithRole
select "p"."id", "p"."key", "p"."name", "pm"."role" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?) order by "p"."key";
-- parameters: [3,1,10,11]

-- projectKeysOf
select "key" from "projects" where "id" in (?, ?) order by "key";
-- parameters: [10,11]
