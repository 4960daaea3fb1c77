-- http/idempotency.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- insertClaim
insert into "idempotency_keys" ("token_id", "key", "request_hash", "lease_expires_at", "created_at", "state", "response_status", "response_body", "grants") values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning "id";
-- parameters: [5,"k-1","ab12","2026-11-21T09:01:00.000Z","2026-11-21T09:00:00.000Z","in_flight",null,null,null]
-- (stops here without a row: no result)

-- findByKey
select * from "idempotency_keys" where "key" = ? and "token_id" = ?;
-- parameters: ["k-1",5]
select * from "idempotency_keys" where "key" = ? and "session_id" = ?;
-- parameters: ["k-1",6]

-- takeOver
update "idempotency_keys" set "request_hash" = ?, "lease_expires_at" = ?, "created_at" = ?, "state" = ?, "response_status" = ?, "response_body" = ?, "grants" = ? where "id" = ? and "state" = ? and "created_at" = ? and "lease_expires_at" = ?;
-- parameters: ["ab12","2026-11-21T09:01:00.000Z","2026-11-21T09:00:00.000Z","in_flight",null,null,null,9,"in_flight","2026-11-21T09:00:00.000Z","2026-11-21T09:01:00.000Z"]

-- complete
update "idempotency_keys" set "state" = ?, "response_status" = ?, "response_body" = ?, "grants" = ? where "id" = ?;
-- parameters: ["complete",201,"{\"success\":true}","[]",9]

-- release
delete from "idempotency_keys" where "id" = ?;
-- parameters: [9]

-- purgeCreatedBefore
delete from "idempotency_keys" where "created_at" < ?;
-- parameters: ["2026-11-21T09:00:00.000Z"]
