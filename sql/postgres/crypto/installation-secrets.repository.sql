-- crypto/installation-secrets.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- ensureInstallationSecret
insert into "installation_secrets" ("name", "value", "created_at") values ($1, $2, $3) on conflict ("name") do nothing;
-- parameters: ["webhook_secret_key","c2VjcmV0","2026-11-21T09:00:00.000Z"]
select "value" from "installation_secrets" where "name" = $1;
-- parameters: ["webhook_secret_key"]
-- (stops here without a row: no result)
