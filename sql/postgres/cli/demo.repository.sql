-- cli/demo.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- findOrganizationBySlug
select "id", "slug", "name" from "organizations" where "slug" = $1;
-- parameters: ["demo"]

-- findServiceAccountNamed
select "id", "name" from "users" where "organization_id" = $1 and "kind" = $2 and "name" = $3;
-- parameters: [1,"service","Demo Bot"]

-- findUserByEmail
select "id" from "users" where "organization_id" = $1 and "email" = $2;
-- parameters: [1,"owner@demo.example"]
