-- modules/notifications/standup-digest.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- organizationSchedules
select "o"."id", "o"."slug", "o"."name", "s"."timezone", "s"."days", "s"."reminder_time" from "organizations" as "o" left join "standup_settings" as "s" on "s"."organization_id" = "o"."id" order by "o"."id";

-- digestRecipients
select "u"."id", "u"."handle" from "users" as "u" where "u"."organization_id" = ? and "u"."active" = ? and "u"."kind" = ? and not exists (select "d"."id" from "standup_digests" as "d" where "d"."user_id" = "u"."id" and "d"."date" >= ?) and not exists (select "e"."id" from "standup_entries" as "e" where "e"."user_id" = "u"."id" and "e"."date" = ? and "e"."state" in (?, ?)) order by "u"."id" limit ?;
-- parameters: [1,1,"human","2026-11-23","2026-11-23","submitted","skipped",200]

-- claimDigest
insert into "standup_digests" ("user_id", "date", "created_at") values (?, ?, ?) on conflict ("user_id", "date") do nothing returning "id";
-- parameters: [3,"2026-11-23","2026-11-23T09:30:00.000Z"]

-- previousDigestAt
select "created_at" from "standup_digests" where "user_id" = ? and "date" < ? order by "date" desc limit ?;
-- parameters: [3,"2026-11-23",1]

-- tasksInFlight
select "t"."key", "t"."title", "s"."name" as "status" from "tasks" as "t" inner join "statuses" as "s" on "s"."id" = "t"."status_id" inner join "project_memberships" as "pm" on "pm"."project_id" = "t"."project_id" and "pm"."user_id" = ? where "t"."assignee_id" = ? and "s"."category" = ? order by "t"."updated_at" desc, "t"."id" desc limit ?;
-- parameters: [3,3,"in_progress",20]

-- followedActivity
select "t"."id" as "task_id", "t"."key", "t"."title", "a"."action", "a"."field", "u"."name" as "actor_name" from "activities" as "a" inner join "tasks" as "t" on "t"."id" = "a"."task_id" inner join "project_memberships" as "pm" on "pm"."project_id" = "t"."project_id" and "pm"."user_id" = ? left join "users" as "u" on "u"."id" = "a"."actor_id" where "a"."created_at" > ? and "a"."action" != ? and ("a"."actor_id" is null or "a"."actor_id" != ?) and ("t"."assignee_id" = ? or "t"."created_by" = ? or exists (select "f"."id" from "task_followers" as "f" where "f"."task_id" = "t"."id" and "f"."user_id" = ?)) and not exists (select "x"."id" from "task_unfollows" as "x" where "x"."task_id" = "t"."id" and "x"."user_id" = ?) order by "a"."id" limit ?;
-- parameters: [3,"2026-11-22T00:00:00.000Z","mentioned_in",3,3,3,3,3,500]

-- currentBlockers
select "e"."user_id", "u"."name", "b"."text", "b"."task_key", "b"."project_id", "t"."assignee_id" from "standup_blockers" as "b" inner join "standup_entries" as "e" on "e"."id" = "b"."entry_id" inner join "users" as "u" on "u"."id" = "e"."user_id" left join "tasks" as "t" on "t"."key" = "b"."task_key" and "t"."project_id" = "b"."project_id" where "e"."organization_id" = ? and "e"."date" >= ? and "e"."date" = (select max("l"."date") as "date" from "standup_entries" as "l" where "l"."user_id" = "e"."user_id" and "l"."state" = ? and "l"."date" <= ?) order by "e"."user_id", "b"."position";
-- parameters: [1,"2026-11-16","submitted","2026-11-23"]

-- memberProjectIds
select "project_id" from "project_memberships" where "user_id" = ?;
-- parameters: [3]
