-- modules/oidc/oidc.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- insertLogin
insert into "oidc_logins" ("state_hash", "nonce", "code_verifier", "purpose", "requested_by", "next_path", "created_at", "expires_at", "used_at", "result") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning "id";
-- parameters: ["sha256","nonce","verifier","sign-in",null,"/","2026-11-21T09:00:00.000Z","2026-11-21T09:10:00.000Z",null,null]
-- (stops here without a row: no result)

-- useLogin
select "id", "nonce", "code_verifier", "purpose", "requested_by", "next_path" from "oidc_logins" where "state_hash" = $1 and "used_at" is null and "expires_at" > $2;
-- parameters: ["sha256","2026-11-21T09:00:00.000Z"]

-- saveTestResult
update "oidc_logins" set "result" = $1 where "id" = $2;
-- parameters: ["{}",4]

-- findTestResult
select "id", "result", "created_at" from "oidc_logins" where "id" = $1 and "purpose" = $2 and "requested_by" = $3 and "result" is not null;
-- parameters: [4,"test",3]

-- deleteExpiredLogins
delete from "oidc_logins" where "expires_at" < $1;
-- parameters: ["2026-11-21T09:00:00.000Z"]

-- findIdentity
select "i"."id", "u"."id" as "user_id", "u"."organization_id", "u"."active", "u"."role", "u"."email", "u"."name" from "oidc_identities" as "i" inner join "users" as "u" on "u"."id" = "i"."user_id" where "i"."issuer" = $1 and "i"."subject" = $2;
-- parameters: ["https://sso.example.com","sub-1"]

-- insertIdentity
insert into "oidc_identities" ("user_id", "issuer", "subject", "created_at", "last_sign_in_at") values ($1, $2, $3, $4, $5);
-- parameters: [3,"https://sso.example.com","sub-1","2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z"]

-- touchIdentity
update "oidc_identities" set "last_sign_in_at" = $1 where "id" = $2;
-- parameters: ["2026-11-21T09:00:00.000Z",4]

-- humansWithEmailIn
select "id", "active", "role", "email", "name" from "users" where "organization_id" = $1 and "kind" = $2 and lower("email") = $3 order by "id";
-- parameters: [1,"human","ada@example.com"]

-- organizationFor
select "id", "slug", "name" from "organizations" where "slug" = $1;
-- parameters: ["acme"]

-- findAccountRole
select "id", "role", "active", "name" from "users" where "id" = $1;
-- parameters: [3]
-- (stops here without a row: no result)

-- membershipsOf
select "id", "project_id", "role" from "project_memberships" where "user_id" = $1 and "project_id" in ($2, $3);
-- parameters: [3,5,6]

-- findMapping
select "m"."groups_claim", "m"."role_map", "m"."project_map", "m"."updated_at", "m"."updated_by", "u"."name" as "updated_by_name" from "oidc_mappings" as "m" left join "users" as "u" on "u"."id" = "m"."updated_by" where "m"."organization_id" = $1;
-- parameters: [1]

-- upsertMapping
insert into "oidc_mappings" ("organization_id", "groups_claim", "role_map", "project_map", "updated_at", "updated_by") values ($1, $2, $3, $4, $5, $6) on conflict ("organization_id") do update set "groups_claim" = $7, "role_map" = $8, "project_map" = $9, "updated_at" = $10, "updated_by" = $11;
-- parameters: [1,"groups","[{\"group\":\"tt-admins\",\"role\":\"admin\"}]","[]","2026-11-21T09:00:00.000Z",3,"groups","[{\"group\":\"tt-admins\",\"role\":\"admin\"}]","[]","2026-11-21T09:00:00.000Z",3]

-- deleteMapping
delete from "oidc_mappings" where "organization_id" = $1;
-- parameters: [1]
