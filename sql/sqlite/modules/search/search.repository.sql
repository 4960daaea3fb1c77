-- modules/search/search.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- countPostgresMatches
select count(*) as "count" from (select "t"."id" from "tasks" as "t" where t.project_id = any(?) and t.search_vector @@ to_tsquery('english', ?) limit ?) as "m";
-- parameters: [[10,11],"login & bug:*",1000]
select count(*) as "count" from (select "t"."id" from "tasks" as "t" where t.project_id = any(?) and t.title_vector @@ to_tsquery('english', ?) limit ?) as "m";
-- parameters: [[10,11],"login & bug:*",1000]
select count(*) as "count" from (select "t"."id" from "tasks" as "t" where t.project_id = any(?) and t.search_vector @@ to_tsquery('english', ?) and not (t.title_vector @@ to_tsquery('english', ?)) limit ?) as "m";
-- parameters: [[10,11],"login & bug:*","login & bug:*",1000]
select count(*) as "count" from (select "t"."id" from "tasks" as "t" where t.project_id = any(?) and t.search_vector @@ to_tsquery('english', ?) and "t"."status_id" in (select "id" from "statuses" where "name" = ? and project_id = any(?)) and "t"."assignee_id" = ? limit ?) as "m";
-- parameters: [[10,11],"login & bug:*","To Do",[10,11],3,1000]
-- (stops here without a row: no result)

-- postgresMatchSlice
select "t"."id" from "tasks" as "t" where t.project_id = any(?) and t.search_vector @@ to_tsquery('english', ?) and not (t.title_vector @@ to_tsquery('english', ?)) order by "t"."id" desc limit ? offset ?;
-- parameters: [[10,11],"login & bug:*","login & bug:*",20,0]

-- rankedPostgresMatches
select "t"."id", (t.title_vector @@ to_tsquery('english', ?))::int as "relevance" from "tasks" as "t" where t.project_id = any(?) and t.search_vector @@ to_tsquery('english', ?);
-- parameters: ["login & bug:*",[10,11],"login & bug:*"]

-- countFtsMatches
select count(*) as "count" from (select fts.rowid as "id" from tasks_fts as "fts" where tasks_fts match ? limit ?) as "m";
-- parameters: ["{title description} : (\"login\" \"bug\"*) AND project_id : (10 OR 11)",1000]
select count(*) as "count" from (select fts.rowid as "id" from tasks_fts as "fts" inner join "tasks" as "t" on "t"."id" = "fts"."rowid" inner join "statuses" as "s" on "s"."id" = "t"."status_id" where tasks_fts match ? and "s"."name" = ? and "t"."assignee_id" = ? limit ?) as "m";
-- parameters: ["{title description} : (\"login\" \"bug\"*) AND project_id : (10 OR 11)","To Do",3,1000]
-- (stops here without a row: no result)

-- allProjectIds
select "id" from "projects";

-- ftsMatchSlice
select fts.rowid as "id" from tasks_fts as "fts" where tasks_fts match ? order by "fts"."rowid" desc limit ? offset ?;
-- parameters: ["title : (\"login\" \"bug\"*) AND project_id : (10 OR 11)",20,0]

-- rankedFtsMatches
select fts.rowid as "id", fts.rowid in (select rowid from tasks_fts where tasks_fts match ?) as "relevance" from tasks_fts as "fts" inner join "tasks" as "t" on "t"."id" = "fts"."rowid" inner join "statuses" as "s" on "s"."id" = "t"."status_id" where tasks_fts match ? and "s"."name" = ? and "t"."assignee_id" = ?;
-- parameters: ["title : (\"login\" \"bug\"*) AND project_id : (10 OR 11)","{title description} : (\"login\" \"bug\"*) AND project_id : (10 OR 11)","To Do",3]
