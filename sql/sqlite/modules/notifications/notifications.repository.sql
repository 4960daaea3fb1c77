-- modules/notifications/notifications.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- takeUnnotifiedEvents
update "event_outbox" set "notified_at" = ? where "correlation_id" in (select "correlation_id" from "event_outbox" where "notified_at" is null order by "id" limit ?) and "notified_at" is null returning "id", "type", "organization_id", "actor_id", "correlation_id", "envelope";
-- parameters: ["2026-11-21T09:00:00.000Z",200]

-- tasksByKeys
select "t"."id", "t"."key", "t"."title", "t"."project_id", "t"."assignee_id", "t"."created_by", "p"."organization_id" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" where "p"."organization_id" in (?) and "t"."key" in (?, ?);
-- parameters: [1,"WEB-1","WEB-2"]

-- followersOfTasks
select "task_id", "user_id" from "task_followers" where "task_id" in (?, ?);
-- parameters: [5,6]

-- unfollowersOfTasks
select "task_id", "user_id" from "task_unfollows" where "task_id" in (?, ?);
-- parameters: [5,6]

-- accountsByHandles
select "id", "handle" from "users" where "organization_id" = ? and "handle" in (?, ?);
-- parameters: [1,"alice","bob"]

-- activeMembersAmong
select "pm"."user_id", "pm"."project_id", "u"."email" from "project_memberships" as "pm" inner join "users" as "u" on "u"."id" = "pm"."user_id" where "pm"."user_id" in (?, ?) and "pm"."project_id" in (?) and "u"."active" = ?;
-- parameters: [3,4,10,1]

-- activeAccountsAmong
select "id", "organization_id", "email" from "users" where "id" in (?, ?) and "organization_id" in (?) and "active" = ?;
-- parameters: [3,4,1,1]

-- customFieldsByIds
select "id", "name", "type" from "custom_fields" where "id" in (?, ?);
-- parameters: [7,9]

-- preferencesOf
select "user_id", "reason", "in_app", "email" from "notification_preferences" where "user_id" in (?, ?);
-- parameters: [3,4]

-- waitingEmails
select "user_id", "reason", min("email_due_at") as "due_at" from "notifications" where "user_id" in (?, ?) and "email_due_at" is not null and "email_attempts" = ? group by "user_id", "reason";
-- parameters: [3,4,0]

-- insertNotifications
insert into "notifications" ("organization_id", "user_id", "kind", "reason", "subject", "body", "data", "created_at", "actor_id", "project_id", "task_id", "comment_id", "in_app", "email_due_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning "id";
-- parameters: [1,3,"assigned","assigned","Ann assigned WEB-1 to you","","{}","2026-11-21T09:00:00.000Z",4,10,5,null,1,null]

-- inboxPage
select "n"."id", "n"."reason", "n"."created_at", "n"."read_at", "n"."actor_id", "a"."name" as "actor_name", "t"."key" as "task_key", "t"."title" as "task_title", "n"."comment_id", "n"."subject" from "notifications" as "n" left join "users" as "a" on "a"."id" = "n"."actor_id" left join "tasks" as "t" on "t"."id" = "n"."task_id" where "n"."user_id" = ? and "n"."in_app" = ? and ("n"."project_id" is null or "n"."project_id" in (select "pm"."project_id" from "project_memberships" as "pm" where "pm"."user_id" = ? and "pm"."project_id" in (?))) and "n"."read_at" is null and "n"."reason" in (?, ?) order by "n"."created_at" desc, "n"."id" desc limit ? offset ?;
-- parameters: [3,1,3,10,"assigned","mentioned",50,0]
select count(*) as "count" from "notifications" as "n" left join "users" as "a" on "a"."id" = "n"."actor_id" left join "tasks" as "t" on "t"."id" = "n"."task_id" where "n"."user_id" = ? and "n"."in_app" = ? and ("n"."project_id" is null or "n"."project_id" in (select "pm"."project_id" from "project_memberships" as "pm" where "pm"."user_id" = ? and "pm"."project_id" in (?))) and "n"."read_at" is null and "n"."reason" in (?, ?);
-- parameters: [3,1,3,10,"assigned","mentioned"]
-- (stops here without a row: no result)

-- markRead
update "notifications" set "read_at" = ? where "id" in (select "n"."id" from "notifications" as "n" left join "users" as "a" on "a"."id" = "n"."actor_id" left join "tasks" as "t" on "t"."id" = "n"."task_id" where "n"."user_id" = ? and "n"."in_app" = ? and ("n"."project_id" is null or "n"."project_id" in (select "pm"."project_id" from "project_memberships" as "pm" where "pm"."user_id" = ?)) and "n"."read_at" is null and "n"."id" in (?, ?));
-- parameters: ["2026-11-21T09:00:00.000Z",3,1,3,12,13]

-- claimDueEmails
select "id" from "notifications" where "email_due_at" <= ? order by "user_id", "reason", "id" limit ?;
-- parameters: ["2026-11-21T09:00:00.000Z",200]

-- markEmailed
update "notifications" set "emailed_at" = ?, "email_due_at" = ?, "email_error" = ? where "id" in (?, ?);
-- parameters: ["2026-11-21T09:00:00.000Z",null,null,12,13]

-- markEmailFailed
update "notifications" set "email_error" = ?, "email_due_at" = ?, "email_attempts" = "email_attempts" + ? where "id" in (?);
-- parameters: ["connection refused","2026-11-21T09:01:00.000Z",1,12]

-- dropEmails
update "notifications" set "email_due_at" = ?, "email_error" = ? where "id" in (?);
-- parameters: [null,"not sent: the recipient no longer sees the task",12]

-- upsertPreferences
insert into "notification_preferences" ("user_id", "reason", "in_app", "email") values (?, ?, ?, ?) on conflict ("user_id", "reason") do update set "in_app" = "excluded"."in_app", "email" = "excluded"."email";
-- parameters: [3,"assigned",1,0]
