-- modules/search/search.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- gatherPostgresMatches
select count(*) as "count", case when count(*) < ? then coalesce(array_agg(m.id) filter (where m.titled), '{}') end as "titled", case when count(*) < ? then coalesce(array_agg(m.id) filter (where not m.titled), '{}') end as "described" from (select "t"."id", t.title_vector @@ to_tsquery('english', ?) as "titled" from "tasks" as "t" where t.project_id = any(?) and "t"."search_vector" @@ to_tsquery('english', ?) limit ?) as "m";
-- parameters: [1000,1000,"login & bug:*",[10,11],"login & bug:*",1000]
select count(*) as "count", case when count(*) < ? then coalesce(array_agg(m.id) filter (where m.titled), '{}') end as "titled", case when count(*) < ? then coalesce(array_agg(m.id) filter (where not m.titled), '{}') end as "described" from (select "t"."id", t.title_vector @@ to_tsquery('english', ?) as "titled" from "tasks" as "t" where t.project_id = any(?) and "t"."title_vector" @@ to_tsquery('english', ?) limit ?) as "m";
-- parameters: [1000,1000,"login & bug:*",[10,11],"login & bug:*",1000]
select count(*) as "count", case when count(*) < ? then coalesce(array_agg(m.id) filter (where m.titled), '{}') end as "titled", case when count(*) < ? then coalesce(array_agg(m.id) filter (where not m.titled), '{}') end as "described" from (select "t"."id", t.title_vector @@ to_tsquery('english', ?) as "titled" from "tasks" as "t" where t.project_id = any(?) and "t"."status_id" in (select "id" from "statuses" where "name" = ? and project_id = any(?)) and "t"."assignee_id" = ? and "t"."search_vector" @@ to_tsquery('english', ?) limit ?) as "m";
-- parameters: [1000,1000,"login & bug:*",[10,11],"To Do",[10,11],3,"login & bug:*",1000]
-- (stops here without a row: no result)

-- gatherStatement
select count(*) as "count", case when count(*) < ? then coalesce(array_agg(m.id) filter (where m.titled), '{}') end as "titled", case when count(*) < ? then coalesce(array_agg(m.id) filter (where not m.titled), '{}') end as "described" from (select "t"."id", t.title_vector @@ to_tsquery('english', ?) as "titled" from "tasks" as "t" where t.project_id = any(?) and "t"."search_vector" @@ to_tsquery('english', ?) limit ?) as "m";
-- parameters: [1000,1000,"login & bug:*",[10,11],"login & bug:*",1000]

-- walkPostgresMatches
select "t"."id" from "tasks" as "t" where t.project_id = any(?) and coalesce("t"."title_vector" @@ to_tsquery('english', ?), false) order by "t"."id" desc limit ? offset ?;
-- parameters: [[10,11],"login & bug:*",20,0]
select "t"."id" from "tasks" as "t" where t.project_id = any(?) and coalesce("t"."search_vector" @@ to_tsquery('english', ?), false) and not (t.id = any(?)) order by "t"."id" desc limit ? offset ?;
-- parameters: [[10,11],"login & bug:*",[5,6],20,0]
select "t"."id" from "tasks" as "t" where t.project_id = any(?) and coalesce("t"."search_vector" @@ to_tsquery('english', ?), false) and not coalesce("t"."title_vector" @@ to_tsquery('english', ?), false) order by "t"."id" desc limit ? offset ?;
-- parameters: [[10,11],"login & bug:*","login & bug:*",20,20]

-- windowPostgresMatches
select "w"."id" from (select "t"."id", coalesce("t"."search_vector" @@ to_tsquery('english', ?), false) and not coalesce("t"."title_vector" @@ to_tsquery('english', ?), false) as "hit" from "tasks" as "t" where t.project_id = any(?) order by "t"."id" desc limit ?) as "w" where w.hit order by "w"."id" desc limit ?;
-- parameters: ["login & bug:*","login & bug:*",[10,11],5000,20]

-- rankedGatheredMatches
select "t"."id", (t.id = any(?))::int as "relevance" from "tasks" as "t" where t.id = any(?);
-- parameters: [[5],[5,6]]

-- rankedPostgresMatches
select "t"."id", (t.title_vector @@ to_tsquery('english', ?))::int as "relevance" from "tasks" as "t" where t.project_id = any(?) and "t"."search_vector" @@ to_tsquery('english', ?);
-- parameters: ["login & bug:*",[10,11],"login & bug:*"]

-- countFtsMatches
select count(*) as "count" from (select fts.rowid as "id" from tasks_fts as "fts" where tasks_fts match ? limit ?) as "m";
-- parameters: ["{title description} : (\"login\" \"bug\"*) AND project_id : (10 OR 11)",1000]
select count(*) as "count" from (select fts.rowid as "id" from tasks_fts as "fts" cross join "tasks" as "t" cross join "statuses" as "s" where tasks_fts match ? and "t"."id" = "fts"."rowid" and "s"."id" = "t"."status_id" and "s"."name" = ? and "t"."assignee_id" = ? limit ?) as "m";
-- parameters: ["{title description} : (\"login\" \"bug\"*) AND project_id : (10 OR 11)","To Do",3,1000]
-- (stops here without a row: no result)

-- allProjectIds
select "id" from "projects";

-- ftsMatchSlice
select fts.rowid as "id" from tasks_fts as "fts" where tasks_fts match ? order by "fts"."rowid" desc limit ? offset ?;
-- parameters: ["title : (\"login\" \"bug\"*) AND project_id : (10 OR 11)",20,0]

-- ftsSliceStatement
select fts.rowid as "id" from tasks_fts as "fts" cross join "tasks" as "t" cross join "statuses" as "s" where tasks_fts match ? and "t"."id" = "fts"."rowid" and "s"."id" = "t"."status_id" and "s"."name" = ? and "t"."assignee_id" = ? order by "fts"."rowid" desc limit ? offset ?;
-- parameters: ["{title description} : (\"login\" \"bug\"*) AND project_id : (10 OR 11)","To Do",3,20,0]

-- rankedFtsMatches
select fts.rowid as "id", fts.rowid in (select rowid from tasks_fts where tasks_fts match ?) as "relevance" from tasks_fts as "fts" cross join "tasks" as "t" cross join "statuses" as "s" where tasks_fts match ? and "t"."id" = "fts"."rowid" and "s"."id" = "t"."status_id" and "s"."name" = ? and "t"."assignee_id" = ?;
-- parameters: ["title : (\"login\" \"bug\"*) AND project_id : (10 OR 11)","{title description} : (\"login\" \"bug\"*) AND project_id : (10 OR 11)","To Do",3]

-- matchIndex
select "id" from "projects";
select fts.rowid as "id", fts.rowid in (select rowid from tasks_fts where tasks_fts match ?) as "relevance" from tasks_fts as "fts" cross join "tasks" as "t" cross join "statuses" as "s" where tasks_fts match ? and "t"."id" = "fts"."rowid" and "s"."id" = "t"."status_id" and "s"."name" = ? and "t"."assignee_id" = ? order by "t"."created_at" desc, "fts"."rowid" desc limit ? offset ?;
-- parameters: ["title : (\"login\" \"bug\"*)","{title description} : (\"login\" \"bug\"*)","To Do",3,20,40]
