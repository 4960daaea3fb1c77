-- modules/people/invitation-projects.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- insertInvitationProjects
insert into "invitation_projects" ("invitation_id", "project_id", "role") values (?, ?, ?), (?, ?, ?);
-- parameters: [7,10,"member",7,11,"viewer"]

-- projectsOfInvitations
select "ip"."invitation_id", "ip"."project_id", "p"."key", "p"."name", "ip"."role" from "invitation_projects" as "ip" inner join "projects" as "p" on "p"."id" = "ip"."project_id" where "ip"."invitation_id" in (?, ?) order by "p"."key";
-- parameters: [7,8]

-- grantInvitationProjects
select "ip"."invitation_id", "ip"."project_id", "p"."key", "p"."name", "ip"."role" from "invitation_projects" as "ip" inner join "projects" as "p" on "p"."id" = "ip"."project_id" where "ip"."invitation_id" in (?) order by "p"."key";
-- parameters: [7]
