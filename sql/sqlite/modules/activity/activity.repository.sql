-- modules/activity/activity.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- activitiesInsert
insert into "activities" ("task_id", "actor_id", "action", "field", "from_value", "to_value", "created_at") values (?, ?, ?, ?, ?, ?, ?);
-- parameters: [42,3,"created",null,null,null,"2026-11-21T09:00:00.000Z"]

-- recordActivities
insert into "activities" ("task_id", "actor_id", "action", "field", "from_value", "to_value", "created_at") values (?, ?, ?, ?, ?, ?, ?);
-- parameters: [42,3,"commented",null,null,"7","2026-11-21T09:00:00.000Z"]
