-- modules/tasks/task-activity.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- activitiesOfTask
select "a"."id", "a"."action", "a"."field", "a"."from_value", "a"."to_value", "a"."created_at", "u"."id" as "actor_id", "u"."name" as "actor_name" from "activities" as "a" left join "users" as "u" on "u"."id" = "a"."actor_id" where "a"."task_id" = $1;
-- parameters: [42]
