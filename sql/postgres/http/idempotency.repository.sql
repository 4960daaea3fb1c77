-- http/idempotency.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- insertClaim
insert into "idempotency_keys" ("token_id", "key", "request_hash", "lease_expires_at", "created_at", "state", "response_status", "response_body", "grants") values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning "id";
-- parameters: [5,"k-1","ab12","2026-11-21T09:01:00.000Z","2026-11-21T09:00:00.000Z","in_flight",null,null,null]
-- (stops here without a row: no result)

-- findByKey
select * from "idempotency_keys" where "key" = $1 and "token_id" = $2;
-- parameters: ["k-1",5]
select * from "idempotency_keys" where "key" = $1 and "session_id" = $2;
-- parameters: ["k-1",6]

-- takeOver
update "idempotency_keys" set "request_hash" = $1, "lease_expires_at" = $2, "created_at" = $3, "state" = $4, "response_status" = $5, "response_body" = $6, "grants" = $7 where "id" = $8 and "state" = $9 and "created_at" = $10 and "lease_expires_at" = $11;
-- parameters: ["ab12","2026-11-21T09:01:00.000Z","2026-11-21T09:00:00.000Z","in_flight",null,null,null,9,"in_flight","2026-11-21T09:00:00.000Z","2026-11-21T09:01:00.000Z"]

-- complete
update "idempotency_keys" set "state" = $1, "response_status" = $2, "response_body" = $3, "grants" = $4 where "id" = $5;
-- parameters: ["complete",201,"{\"success\":true}","[]",9]

-- release
delete from "idempotency_keys" where "id" = $1;
-- parameters: [9]

-- purgeCreatedBefore
delete from "idempotency_keys" where "created_at" < $1;
-- parameters: ["2026-11-21T09:00:00.000Z"]
