-- modules/links/links.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- findBlockingPath

    WITH RECURSIVE reach(node, parent) AS (
      SELECT CAST(? AS integer), CAST(NULL AS integer)
      UNION
      SELECT l.to_task_id, l.from_task_id
      FROM task_links l
      JOIN reach r ON l.from_task_id = r.node
      WHERE l.type = 'blocks' AND r.node <> ?
    )
    SELECT node, parent FROM reach
  ;
-- parameters: [43,42]

-- lockLinkGraph

-- holdTasks
select "id" from "tasks" where "id" in (?, ?);
-- parameters: [42,43]

-- linksPage
select "l"."id", "l"."from_task_id", "l"."to_task_id", "l"."type", "l"."created_by", "l"."created_at", "o"."key", "o"."title", "s"."name" as "status" from "task_links" as "l" inner join "tasks" as "o" on "o"."id" = case when "l"."from_task_id" = ? then "l"."to_task_id" else "l"."from_task_id" end inner join "statuses" as "s" on "s"."id" = "o"."status_id" where ("l"."from_task_id" = ? or "l"."to_task_id" = ?) and "o"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)) order by "l"."created_at" asc, "l"."id" asc limit ? offset ?;
-- parameters: [42,42,42,3,1,10,11,50,0]
select count(*) as "count" from "task_links" as "l" inner join "tasks" as "o" on "o"."id" = case when "l"."from_task_id" = ? then "l"."to_task_id" else "l"."from_task_id" end inner join "statuses" as "s" on "s"."id" = "o"."status_id" where ("l"."from_task_id" = ? or "l"."to_task_id" = ?) and "o"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?));
-- parameters: [42,42,42,3,1,10,11]
-- (stops here without a row: no result)

-- findVisibleLink
select "l"."id", "l"."from_task_id", "l"."to_task_id", "l"."type", "l"."created_by", "l"."created_at", "o"."key", "o"."title", "s"."name" as "status" from "task_links" as "l" inner join "tasks" as "o" on "o"."id" = case when "l"."from_task_id" = ? then "l"."to_task_id" else "l"."from_task_id" end inner join "statuses" as "s" on "s"."id" = "o"."status_id" where ("l"."from_task_id" = ? or "l"."to_task_id" = ?) and "o"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)) and "l"."id" = ?;
-- parameters: [42,42,42,3,1,10,11,7]

-- findEquivalentLink
select "id", "from_task_id", "to_task_id", "type" from "task_links" where "type" = ? and ("from_task_id" = ? and "to_task_id" = ?);
-- parameters: ["blocks",42,43]
select "id", "from_task_id", "to_task_id", "type" from "task_links" where "type" = ? and (("from_task_id" = ? and "to_task_id" = ?) or ("from_task_id" = ? and "to_task_id" = ?));
-- parameters: ["duplicates",42,43,43,42]

-- linkEnds
select "t"."id", "t"."key", "t"."title", "p"."id" as "project_id", "p"."key" as "project_key" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" where "t"."id" in (?, ?);
-- parameters: [42,43]

-- taskKeys
select "id", "key" from "tasks" where "id" in (?, ?, ?);
-- parameters: [42,43,44]

-- insertLink
insert into "task_links" ("from_task_id", "to_task_id", "type", "created_by", "created_at") values (?, ?, ?, ?, ?) returning "id";
-- parameters: [42,43,"blocks",3,"2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- deleteLink
delete from "task_links" where "id" = ?;
-- parameters: [7]
