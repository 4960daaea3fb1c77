-- modules/search/search.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- countPostgresMatches
select count(*) as "count" from (select "t"."id" from "tasks" as "t" where t.project_id = any($1) and t.search_vector @@ to_tsquery('english', $2) limit $3) as "m";
-- parameters: [[10,11],"login & bug:*",1000]
select count(*) as "count" from (select "t"."id" from "tasks" as "t" where t.project_id = any($1) and t.title_vector @@ to_tsquery('english', $2) limit $3) as "m";
-- parameters: [[10,11],"login & bug:*",1000]
select count(*) as "count" from (select "t"."id" from "tasks" as "t" where t.project_id = any($1) and t.search_vector @@ to_tsquery('english', $2) and not (t.title_vector @@ to_tsquery('english', $3)) limit $4) as "m";
-- parameters: [[10,11],"login & bug:*","login & bug:*",1000]
select count(*) as "count" from (select "t"."id" from "tasks" as "t" where t.project_id = any($1) and t.search_vector @@ to_tsquery('english', $2) and "t"."status_id" in (select "id" from "statuses" where "name" = $3 and project_id = any($4)) and "t"."assignee_id" = $5 limit $6) as "m";
-- parameters: [[10,11],"login & bug:*","To Do",[10,11],3,1000]
-- (stops here without a row: no result)

-- postgresMatchSlice
select "t"."id" from "tasks" as "t" where t.project_id = any($1) and t.search_vector @@ to_tsquery('english', $2) and not (t.title_vector @@ to_tsquery('english', $3)) order by "t"."id" desc limit $4 offset $5;
-- parameters: [[10,11],"login & bug:*","login & bug:*",20,0]

-- rankedPostgresMatches
select "t"."id", (t.title_vector @@ to_tsquery('english', $1))::int as "relevance" from "tasks" as "t" where t.project_id = any($2) and t.search_vector @@ to_tsquery('english', $3);
-- parameters: ["login & bug:*",[10,11],"login & bug:*"]

-- countFtsMatches
select count(*) as "count" from (select fts.rowid as "id" from tasks_fts as "fts" where tasks_fts match $1 limit $2) as "m";
-- parameters: ["{title description} : (\"login\" \"bug\"*) AND project_id : (10 OR 11)",1000]
select count(*) as "count" from (select fts.rowid as "id" from tasks_fts as "fts" inner join "tasks" as "t" on "t"."id" = "fts"."rowid" inner join "statuses" as "s" on "s"."id" = "t"."status_id" where tasks_fts match $1 and "s"."name" = $2 and "t"."assignee_id" = $3 limit $4) as "m";
-- parameters: ["{title description} : (\"login\" \"bug\"*) AND project_id : (10 OR 11)","To Do",3,1000]
-- (stops here without a row: no result)

-- allProjectIds
select "id" from "projects";

-- ftsMatchSlice
select fts.rowid as "id" from tasks_fts as "fts" where tasks_fts match $1 order by "fts"."rowid" desc limit $2 offset $3;
-- parameters: ["title : (\"login\" \"bug\"*) AND project_id : (10 OR 11)",20,0]

-- rankedFtsMatches
select fts.rowid as "id", fts.rowid in (select rowid from tasks_fts where tasks_fts match $1) as "relevance" from tasks_fts as "fts" inner join "tasks" as "t" on "t"."id" = "fts"."rowid" inner join "statuses" as "s" on "s"."id" = "t"."status_id" where tasks_fts match $2 and "s"."name" = $3 and "t"."assignee_id" = $4;
-- parameters: ["title : (\"login\" \"bug\"*) AND project_id : (10 OR 11)","{title description} : (\"login\" \"bug\"*) AND project_id : (10 OR 11)","To Do",3]
