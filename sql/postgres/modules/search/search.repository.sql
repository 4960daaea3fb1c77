-- modules/search/search.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- postgresMatches
select "t"."id", "t"."project_id", "t"."number", "t"."key", "p"."key" as "project_key", "t"."title", "t"."description", "t"."task_type_id", "tt"."name" as "task_type", "t"."priority_id", "pr"."name" as "priority", "t"."status_id", "s"."name" as "status", "s"."category" as "status_category", "t"."assignee_id", "t"."parent_id", "pt"."key" as "parent_key", "t"."due_date", "t"."milestone_id", "t"."sprint_id", "t"."version", "t"."created_by", "t"."created_at", "t"."updated_at", (t.search_vector @@ to_tsquery('english', $1))::int as "relevance" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" inner join "task_types" as "tt" on "tt"."id" = "t"."task_type_id" inner join "priorities" as "pr" on "pr"."id" = "t"."priority_id" left join "tasks" as "pt" on "pt"."id" = "t"."parent_id" where "t"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $2 where "p"."organization_id" = $3 and "p"."id" in ($4, $5)) and t.search_vector @@ to_tsquery('english', $6);
-- parameters: ["login:A & bug:*A",3,1,10,11,"login & bug:*"]
select "t"."id", "t"."project_id", "t"."number", "t"."key", "p"."key" as "project_key", "t"."title", "t"."description", "t"."task_type_id", "tt"."name" as "task_type", "t"."priority_id", "pr"."name" as "priority", "t"."status_id", "s"."name" as "status", "s"."category" as "status_category", "t"."assignee_id", "t"."parent_id", "pt"."key" as "parent_key", "t"."due_date", "t"."milestone_id", "t"."sprint_id", "t"."version", "t"."created_by", "t"."created_at", "t"."updated_at", (t.search_vector @@ to_tsquery('english', $1))::int as "relevance" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" inner join "task_types" as "tt" on "tt"."id" = "t"."task_type_id" inner join "priorities" as "pr" on "pr"."id" = "t"."priority_id" left join "tasks" as "pt" on "pt"."id" = "t"."parent_id" where "t"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $2 where "p"."organization_id" = $3 and "p"."id" in ($4, $5)) and t.search_vector @@ to_tsquery('english', $6) and "p"."key" = $7 and "s"."name" = $8 and "t"."assignee_id" = $9;
-- parameters: ["login:A & bug:*A",3,1,10,11,"login & bug:*","PROJ","To Do",3]

-- countFtsMatches
select count(*) as "count" from tasks_fts as "fts" where tasks_fts match $1;
-- parameters: ["{title description} : (\"login\" \"bug\"*) AND project_id : (10 OR 11)"]
select count(*) as "count" from tasks_fts as "fts" inner join "tasks" as "t" on "t"."id" = "fts"."rowid" inner join "statuses" as "s" on "s"."id" = "t"."status_id" where tasks_fts match $1 and "s"."name" = $2 and "t"."assignee_id" = $3;
-- parameters: ["{title description} : (\"login\" \"bug\"*) AND project_id : (10 OR 11)","To Do",3]
-- (stops here without a row: no result)

-- ftsMatchSlice
select fts.rowid as "id" from tasks_fts as "fts" where tasks_fts match $1 order by "fts"."rowid" desc limit $2 offset $3;
-- parameters: ["title : (\"login\" \"bug\"*) AND project_id : (10 OR 11)",20,0]

-- rankedFtsMatches
select fts.rowid as "id", fts.rowid in (select rowid from tasks_fts where tasks_fts match $1) as "relevance" from tasks_fts as "fts" inner join "tasks" as "t" on "t"."id" = "fts"."rowid" inner join "statuses" as "s" on "s"."id" = "t"."status_id" where tasks_fts match $2 and "s"."name" = $3 and "t"."assignee_id" = $4;
-- parameters: ["title : (\"login\" \"bug\"*) AND project_id : (10 OR 11)","{title description} : (\"login\" \"bug\"*) AND project_id : (10 OR 11)","To Do",3]
