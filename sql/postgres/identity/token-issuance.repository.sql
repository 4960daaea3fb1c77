-- identity/token-issuance.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- findAccount
select "id", "organization_id", "kind", "role", "active", "name", "email" from "users" where "id" = $1;
-- parameters: [3]

-- projectsByKeys
select "id", "key" from "projects" where "organization_id" = $1 and "key" in ($2, $3);
-- parameters: [1,"WEB","OPS"]
select "id", "key" from "projects" where "organization_id" = $1 and "key" in ($2);
-- parameters: [1,""]

-- insertToken
insert into "api_tokens" ("user_id", "token_hash", "token_prefix", "scopes", "project_ids", "expires_at", "revoked_at", "created_at", "name", "created_by") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning "id";
-- parameters: [3,"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","tt_abcdef","[\"tasks:write\"]","[10]",null,null,"2026-11-21T09:00:00.000Z","CI",2]
-- (stops here without a row: no result)
