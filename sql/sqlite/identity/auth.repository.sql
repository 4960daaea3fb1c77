-- identity/auth.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- accounts
select "u"."id" as "user_id", "u"."name" as "user_name", "u"."email" as "user_email", "u"."kind" as "user_kind", "u"."role", "u"."active" as "user_active", "o"."id" as "organization_id", "o"."slug" as "organization_slug", "o"."name" as "organization_name" from "users" as "u" inner join "organizations" as "o" on "o"."id" = "u"."organization_id";

-- findTokenWithAccount
select "u"."id" as "user_id", "u"."name" as "user_name", "u"."email" as "user_email", "u"."kind" as "user_kind", "u"."role", "u"."active" as "user_active", "o"."id" as "organization_id", "o"."slug" as "organization_slug", "o"."name" as "organization_name", "t"."id" as "token_id", "t"."scopes", "t"."project_ids", "t"."expires_at", "t"."revoked_at", "t"."created_by", "issuer"."role" as "issuer_role", "issuer"."active" as "issuer_active" from "users" as "u" inner join "organizations" as "o" on "o"."id" = "u"."organization_id" inner join "api_tokens" as "t" on "t"."user_id" = "u"."id" left join "users" as "issuer" on "issuer"."id" = "t"."created_by" and "issuer"."organization_id" = "u"."organization_id" where "t"."token_hash" = ?;
-- parameters: ["e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"]

-- authEpoch
select "value" from "auth_epoch" where "id" = ?;
-- parameters: [1]

-- recordTokenUse
insert into "api_token_usage" ("token_id", "last_used_at") values (?, ?) on conflict ("token_id") do update set "last_used_at" = ?;
-- parameters: [5,"2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z"]
