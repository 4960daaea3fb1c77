-- modules/accounts/handles.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- handlesStartingWith
select "handle" from "users" where "organization_id" = ? and "handle" like ?;
-- parameters: [1,"alice%"]

-- handleOf
select "handle" from "users" where "id" = ?;
-- parameters: [3]
-- (stops here without a row: no result)

-- setHandle
update "users" set "handle" = ? where "id" = ?;
-- parameters: ["ada",3]
