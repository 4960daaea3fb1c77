-- cli/demo.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- findOrganizationBySlug
select "id", "slug", "name" from "organizations" where "slug" = ?;
-- parameters: ["demo"]

-- findServiceAccountNamed
select "id", "name" from "users" where "organization_id" = ? and "kind" = ? and "name" = ?;
-- parameters: [1,"service","Demo Bot"]

-- findUserByEmail
select "id" from "users" where "organization_id" = ? and "email" = ?;
-- parameters: [1,"owner@demo.example"]
