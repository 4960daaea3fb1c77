-- modules/accounts/handles.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- handlesStartingWith
select "handle" from "users" where "organization_id" = $1 and "handle" like $2;
-- parameters: [1,"alice%"]

-- handleOf
select "handle" from "users" where "id" = $1;
-- parameters: [3]
-- (stops here without a row: no result)

-- setHandle
update "users" set "handle" = $1 where "id" = $2;
-- parameters: ["ada",3]
