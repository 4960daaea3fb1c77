-- modules/notifications/notifications.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- takeUnnotifiedEvents
update "event_outbox" set "notified_at" = $1 where "correlation_id" in (select "correlation_id" from "event_outbox" where "notified_at" is null order by "id" limit $2 for update skip locked) and "notified_at" is null returning "id", "type", "organization_id", "actor_id", "correlation_id", "envelope";
-- parameters: ["2026-11-21T09:00:00.000Z",200]

-- tasksByKeys
select "t"."id", "t"."key", "t"."title", "t"."project_id", "t"."assignee_id", "t"."created_by", "p"."organization_id" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" where "p"."organization_id" in ($1) and "t"."key" in ($2, $3);
-- parameters: [1,"WEB-1","WEB-2"]

-- followersOfTasks
select "task_id", "user_id" from "task_followers" where "task_id" in ($1, $2);
-- parameters: [5,6]

-- unfollowersOfTasks
select "task_id", "user_id" from "task_unfollows" where "task_id" in ($1, $2);
-- parameters: [5,6]

-- accountsByHandles
select "id", "handle" from "users" where "organization_id" = $1 and "handle" in ($2, $3);
-- parameters: [1,"alice","bob"]

-- activeMembersAmong
select "pm"."user_id", "pm"."project_id", "u"."email" from "project_memberships" as "pm" inner join "users" as "u" on "u"."id" = "pm"."user_id" where "pm"."user_id" in ($1, $2) and "pm"."project_id" in ($3) and "u"."active" = $4;
-- parameters: [3,4,10,1]

-- activeAccountsAmong
select "id", "organization_id", "email" from "users" where "id" in ($1, $2) and "organization_id" in ($3) and "active" = $4;
-- parameters: [3,4,1,1]

-- customFieldsByIds
select "id", "name", "type" from "custom_fields" where "id" in ($1, $2);
-- parameters: [7,9]

-- preferencesOf
select "user_id", "reason", "in_app", "email" from "notification_preferences" where "user_id" in ($1, $2);
-- parameters: [3,4]

-- waitingEmails
select "user_id", "reason", min("email_due_at") as "due_at" from "notifications" where "user_id" in ($1, $2) and "email_due_at" is not null and "email_attempts" = $3 group by "user_id", "reason";
-- parameters: [3,4,0]

-- insertNotifications
insert into "notifications" ("organization_id", "user_id", "kind", "reason", "subject", "body", "data", "created_at", "actor_id", "project_id", "task_id", "comment_id", "in_app", "email_due_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) returning "id";
-- parameters: [1,3,"assigned","assigned","Ann assigned WEB-1 to you","","{}","2026-11-21T09:00:00.000Z",4,10,5,null,1,null]

-- inboxPage
select "n"."id", "n"."reason", "n"."created_at", "n"."read_at", "n"."actor_id", "a"."name" as "actor_name", "t"."key" as "task_key", "t"."title" as "task_title", "n"."comment_id", "n"."subject" from "notifications" as "n" left join "users" as "a" on "a"."id" = "n"."actor_id" left join "tasks" as "t" on "t"."id" = "n"."task_id" where "n"."user_id" = $1 and "n"."in_app" = $2 and ("n"."project_id" is null or "n"."project_id" in (select "pm"."project_id" from "project_memberships" as "pm" where "pm"."user_id" = $3 and "pm"."project_id" in ($4))) and "n"."read_at" is null and "n"."reason" in ($5, $6) order by "n"."created_at" desc, "n"."id" desc limit $7 offset $8;
-- parameters: [3,1,3,10,"assigned","mentioned",50,0]
select count(*) as "count" from "notifications" as "n" left join "users" as "a" on "a"."id" = "n"."actor_id" left join "tasks" as "t" on "t"."id" = "n"."task_id" where "n"."user_id" = $1 and "n"."in_app" = $2 and ("n"."project_id" is null or "n"."project_id" in (select "pm"."project_id" from "project_memberships" as "pm" where "pm"."user_id" = $3 and "pm"."project_id" in ($4))) and "n"."read_at" is null and "n"."reason" in ($5, $6);
-- parameters: [3,1,3,10,"assigned","mentioned"]
-- (stops here without a row: no result)

-- markRead
update "notifications" set "read_at" = $1 where "id" in (select "n"."id" from "notifications" as "n" left join "users" as "a" on "a"."id" = "n"."actor_id" left join "tasks" as "t" on "t"."id" = "n"."task_id" where "n"."user_id" = $2 and "n"."in_app" = $3 and ("n"."project_id" is null or "n"."project_id" in (select "pm"."project_id" from "project_memberships" as "pm" where "pm"."user_id" = $4)) and "n"."read_at" is null and "n"."id" in ($5, $6));
-- parameters: ["2026-11-21T09:00:00.000Z",3,1,3,12,13]

-- claimDueEmails
select "id" from "notifications" where "email_due_at" <= $1 order by "user_id", "reason", "id" limit $2;
-- parameters: ["2026-11-21T09:00:00.000Z",200]

-- markEmailed
update "notifications" set "emailed_at" = $1, "email_due_at" = $2, "email_error" = $3 where "id" in ($4, $5);
-- parameters: ["2026-11-21T09:00:00.000Z",null,null,12,13]

-- markEmailFailed
update "notifications" set "email_error" = $1, "email_due_at" = $2, "email_attempts" = "email_attempts" + $3 where "id" in ($4);
-- parameters: ["connection refused","2026-11-21T09:01:00.000Z",1,12]

-- dropEmails
update "notifications" set "email_due_at" = $1, "email_error" = $2 where "id" in ($3);
-- parameters: [null,"not sent: the recipient no longer sees the task",12]

-- upsertPreferences
insert into "notification_preferences" ("user_id", "reason", "in_app", "email") values ($1, $2, $3, $4) on conflict ("user_id", "reason") do update set "in_app" = "excluded"."in_app", "email" = "excluded"."email";
-- parameters: [3,"assigned",1,0]
