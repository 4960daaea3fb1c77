-- modules/search/search.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- gatherPostgresMatches
select count(*) as "count", case when count(*) < $1 then coalesce(array_agg(m.id) filter (where m.titled), '{}') end as "titled", case when count(*) < $2 then coalesce(array_agg(m.id) filter (where not m.titled), '{}') end as "described" from (select "t"."id", t.title_vector @@ to_tsquery('english', $3) as "titled" from "tasks" as "t" where t.project_id = any($4) and "t"."search_vector" @@ to_tsquery('english', $5) limit $6) as "m";
-- parameters: [1000,1000,"login & bug:*",[10,11],"login & bug:*",1000]
select count(*) as "count", case when count(*) < $1 then coalesce(array_agg(m.id) filter (where m.titled), '{}') end as "titled", case when count(*) < $2 then coalesce(array_agg(m.id) filter (where not m.titled), '{}') end as "described" from (select "t"."id", t.title_vector @@ to_tsquery('english', $3) as "titled" from "tasks" as "t" where t.project_id = any($4) and "t"."title_vector" @@ to_tsquery('english', $5) limit $6) as "m";
-- parameters: [1000,1000,"login & bug:*",[10,11],"login & bug:*",1000]
select count(*) as "count", case when count(*) < $1 then coalesce(array_agg(m.id) filter (where m.titled), '{}') end as "titled", case when count(*) < $2 then coalesce(array_agg(m.id) filter (where not m.titled), '{}') end as "described" from (select "t"."id", t.title_vector @@ to_tsquery('english', $3) as "titled" from "tasks" as "t" where t.project_id = any($4) and "t"."status_id" in (select "id" from "statuses" where "name" = $5 and project_id = any($6)) and "t"."assignee_id" = $7 and "t"."search_vector" @@ to_tsquery('english', $8) limit $9) as "m";
-- parameters: [1000,1000,"login & bug:*",[10,11],"To Do",[10,11],3,"login & bug:*",1000]
-- (stops here without a row: no result)

-- gatherStatement
select count(*) as "count", case when count(*) < $1 then coalesce(array_agg(m.id) filter (where m.titled), '{}') end as "titled", case when count(*) < $2 then coalesce(array_agg(m.id) filter (where not m.titled), '{}') end as "described" from (select "t"."id", t.title_vector @@ to_tsquery('english', $3) as "titled" from "tasks" as "t" where t.project_id = any($4) and "t"."search_vector" @@ to_tsquery('english', $5) limit $6) as "m";
-- parameters: [1000,1000,"login & bug:*",[10,11],"login & bug:*",1000]

-- walkPostgresMatches
select "t"."id" from "tasks" as "t" where t.project_id = any($1) and coalesce("t"."title_vector" @@ to_tsquery('english', $2), false) order by "t"."id" desc limit $3 offset $4;
-- parameters: [[10,11],"login & bug:*",20,0]
select "t"."id" from "tasks" as "t" where t.project_id = any($1) and coalesce("t"."search_vector" @@ to_tsquery('english', $2), false) and not (t.id = any($3)) order by "t"."id" desc limit $4 offset $5;
-- parameters: [[10,11],"login & bug:*",[5,6],20,0]
select "t"."id" from "tasks" as "t" where t.project_id = any($1) and coalesce("t"."search_vector" @@ to_tsquery('english', $2), false) and not coalesce("t"."title_vector" @@ to_tsquery('english', $3), false) order by "t"."id" desc limit $4 offset $5;
-- parameters: [[10,11],"login & bug:*","login & bug:*",20,20]

-- windowPostgresMatches
select "w"."id" from (select "t"."id", coalesce("t"."search_vector" @@ to_tsquery('english', $1), false) and not coalesce("t"."title_vector" @@ to_tsquery('english', $2), false) as "hit" from "tasks" as "t" where t.project_id = any($3) order by "t"."id" desc limit $4) as "w" where w.hit order by "w"."id" desc limit $5;
-- parameters: ["login & bug:*","login & bug:*",[10,11],5000,20]

-- rankedGatheredMatches
select "t"."id", (t.id = any($1))::int as "relevance" from "tasks" as "t" where t.id = any($2);
-- parameters: [[5],[5,6]]

-- rankedPostgresMatches
select "t"."id", (t.title_vector @@ to_tsquery('english', $1))::int as "relevance" from "tasks" as "t" where t.project_id = any($2) and "t"."search_vector" @@ to_tsquery('english', $3);
-- parameters: ["login & bug:*",[10,11],"login & bug:*"]

-- countFtsMatches
select count(*) as "count" from (select fts.rowid as "id" from tasks_fts as "fts" where tasks_fts match $1 limit $2) as "m";
-- parameters: ["{title description} : (\"login\" \"bug\"*) AND project_id : (10 OR 11)",1000]
select count(*) as "count" from (select fts.rowid as "id" from tasks_fts as "fts" cross join "tasks" as "t" cross join "statuses" as "s" where tasks_fts match $1 and "t"."id" = "fts"."rowid" and "s"."id" = "t"."status_id" and "s"."name" = $2 and "t"."assignee_id" = $3 limit $4) as "m";
-- parameters: ["{title description} : (\"login\" \"bug\"*) AND project_id : (10 OR 11)","To Do",3,1000]
-- (stops here without a row: no result)

-- allProjectIds
select "id" from "projects";

-- ftsMatchSlice
select fts.rowid as "id" from tasks_fts as "fts" where tasks_fts match $1 order by "fts"."rowid" desc limit $2 offset $3;
-- parameters: ["title : (\"login\" \"bug\"*) AND project_id : (10 OR 11)",20,0]

-- ftsSliceStatement
select fts.rowid as "id" from tasks_fts as "fts" cross join "tasks" as "t" cross join "statuses" as "s" where tasks_fts match $1 and "t"."id" = "fts"."rowid" and "s"."id" = "t"."status_id" and "s"."name" = $2 and "t"."assignee_id" = $3 order by "fts"."rowid" desc limit $4 offset $5;
-- parameters: ["{title description} : (\"login\" \"bug\"*) AND project_id : (10 OR 11)","To Do",3,20,0]

-- rankedFtsMatches
select fts.rowid as "id", fts.rowid in (select rowid from tasks_fts where tasks_fts match $1) as "relevance" from tasks_fts as "fts" cross join "tasks" as "t" cross join "statuses" as "s" where tasks_fts match $2 and "t"."id" = "fts"."rowid" and "s"."id" = "t"."status_id" and "s"."name" = $3 and "t"."assignee_id" = $4;
-- parameters: ["title : (\"login\" \"bug\"*) AND project_id : (10 OR 11)","{title description} : (\"login\" \"bug\"*) AND project_id : (10 OR 11)","To Do",3]

-- matchIndex
select count(*) as "count", case when count(*) < $1 then coalesce(array_agg(m.id) filter (where m.titled), '{}') end as "titled", case when count(*) < $2 then coalesce(array_agg(m.id) filter (where not m.titled), '{}') end as "described" from (select "t"."id", t.title_vector @@ to_tsquery('english', $3) as "titled" from "tasks" as "t" where t.project_id = any($4) and "t"."status_id" in (select "id" from "statuses" where "name" = $5 and project_id = any($6)) and "t"."assignee_id" = $7 and "t"."search_vector" @@ to_tsquery('english', $8) limit $9) as "m";
-- parameters: [1000,1000,"login & bug:*",[10,11],"To Do",[10,11],3,"login & bug:*",1000]
-- (stops here without a row: no result)
