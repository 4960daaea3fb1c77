-- identity/tokens.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- liveTokens
select "t"."id", "t"."name", "u"."id" as "account_id", "u"."name" as "account_name", "t"."scopes", "t"."project_ids", "t"."created_at", "t"."expires_at", "tu"."last_used_at" from "api_tokens" as "t" inner join "users" as "u" on "u"."id" = "t"."user_id" left join "api_token_usage" as "tu" on "tu"."token_id" = "t"."id" where "t"."revoked_at" is null and "u"."organization_id" = $1 and "u"."id" = $2 order by "t"."id";
-- parameters: [1,3]

-- findLiveTokenIn
select "t"."id", "u"."id" as "account_id" from "api_tokens" as "t" inner join "users" as "u" on "u"."id" = "t"."user_id" where "t"."id" = $1 and "u"."organization_id" = $2 and "t"."revoked_at" is null;
-- parameters: [5,1]

-- projectKeysOf
select "id", "key" from "projects" where "id" in ($1, $2);
-- parameters: [10,11]

-- revokeToken
update "api_tokens" set "revoked_at" = $1 where "id" = $2 and "revoked_at" is null;
-- parameters: ["2026-11-21T09:00:00.000Z",5]

-- findTokenForAudit
select "t"."id", "t"."name", "t"."token_prefix", "u"."id" as "account_id", "u"."name" as "account_name", "u"."organization_id" from "api_tokens" as "t" inner join "users" as "u" on "u"."id" = "t"."user_id" where "t"."id" = $1;
-- parameters: [5]

-- findTokenRevocation
select "revoked_at" from "api_tokens" where "id" = $1;
-- parameters: [5]
