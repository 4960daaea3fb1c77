-- identity/sign-in.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- humansWithEmail
select "id", "organization_id", "email", "name", "password_hash", "active", "role" from "users" where "kind" = $1 and "active" = $2 and lower("email") = $3 order by "id";
-- parameters: ["human",1,"ada@example.test"]

-- findPersonWithOrganization
select "u"."id", "u"."email", "u"."name", "u"."role", "o"."id" as "org_id", "o"."slug" as "org_slug", "o"."name" as "org_name" from "users" as "u" inner join "organizations" as "o" on "o"."id" = "u"."organization_id" where "u"."id" = $1;
-- parameters: [3]
-- (stops here without a row: no result)
