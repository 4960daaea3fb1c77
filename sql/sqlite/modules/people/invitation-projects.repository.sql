-- modules/people/invitation-projects.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- insertInvitationProjects
insert into "invitation_projects" ("invitation_id", "project_id", "role") values (?, ?, ?), (?, ?, ?);
-- parameters: [7,10,"member",7,11,"viewer"]

-- projectsOfInvitations
select "ip"."invitation_id", "ip"."project_id", "p"."key", "p"."name", "ip"."role" from "invitation_projects" as "ip" inner join "projects" as "p" on "p"."id" = "ip"."project_id" where "ip"."invitation_id" in (?, ?) order by "p"."key";
-- parameters: [7,8]

-- projectsOfInvitationWithIssuerRole
select "ip"."project_id", "p"."key", "p"."name", "ip"."role", "issuer"."role" as "issuer_role" from "invitation_projects" as "ip" inner join "projects" as "p" on "p"."id" = "ip"."project_id" left join "project_memberships" as "issuer" on "issuer"."project_id" = "ip"."project_id" and "issuer"."user_id" = ? where "ip"."invitation_id" = ? order by "p"."key";
-- parameters: [3,7]

-- grantInvitationProjects
insert into "project_memberships" ("project_id", "user_id", "role", "created_at", "updated_at") values (?, ?, ?, ?, ?) returning "id";
-- parameters: [10,42,"member","2026-11-21T10:00:00.000000Z","2026-11-21T10:00:00.000000Z"]
-- (stops here without a row: no result)
