-- modules/tasks/task-activity.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- activitiesPage
select "a"."id", "a"."action", "a"."field", "a"."from_value", "a"."to_value", "a"."created_at", "u"."id" as "actor_id", "u"."name" as "actor_name" from "activities" as "a" left join "users" as "u" on "u"."id" = "a"."actor_id" where "a"."task_id" = ? and ("a"."source_task_id" is null or "a"."source_task_id" in (select "s"."id" from "tasks" as "s" where "s"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)))) order by "a"."created_at" desc, "a"."id" desc limit ? offset ?;
-- parameters: [42,3,1,10,11,50,0]
select count(*) as "count" from "activities" as "a" left join "users" as "u" on "u"."id" = "a"."actor_id" where "a"."task_id" = ? and ("a"."source_task_id" is null or "a"."source_task_id" in (select "s"."id" from "tasks" as "s" where "s"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?))));
-- parameters: [42,3,1,10,11]
-- (stops here without a row: no result)
