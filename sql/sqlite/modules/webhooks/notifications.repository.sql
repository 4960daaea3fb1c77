-- modules/webhooks/notifications.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- disableEnabledEndpoint
update "webhook_endpoints" set "enabled" = ?, "disabled_reason" = ?, "updated_at" = ? where "id" = ? and "enabled" = ? returning "id", "url", "organization_id", "created_by", "project_id";
-- parameters: [0,"Disabled automatically.","2026-11-21T09:00:00.000Z",4,1]

-- endpointStewards
select "id", "email" from "users" where "organization_id" = ? and ("id" = ? or "role" = ?) order by "id";
-- parameters: [1,3,"owner"]

-- markNotificationEmailed
update "notifications" set "emailed_at" = ? where "id" = ?;
-- parameters: ["2026-11-21T09:00:00.000Z",12]

-- markNotificationEmailFailed
update "notifications" set "email_error" = ? where "id" = ?;
-- parameters: ["connection refused",12]

-- recentNotifications
select "n"."id", "o"."slug" as "organization", "n"."user_id" as "user", "u"."name" as "user_name", "u"."email" as "user_email", "n"."kind", "n"."subject", "n"."body", "n"."data", "n"."created_at", "n"."emailed_at", "n"."email_error" from "notifications" as "n" inner join "users" as "u" on "u"."id" = "n"."user_id" inner join "organizations" as "o" on "o"."id" = "n"."organization_id" where "o"."slug" = ? order by "n"."id" desc limit ?;
-- parameters: ["acme",50]

-- notificationsOf
select "id", "kind", "subject", "data", "created_at", "read_at" from "notifications" where "user_id" = ? order by "id" desc limit ?;
-- parameters: [3,200]

-- findOwnNotification
select "id", "read_at" from "notifications" where "id" = ? and "user_id" = ?;
-- parameters: [12,3]

-- markNotificationRead
update "notifications" set "read_at" = ? where "id" = ?;
-- parameters: ["2026-11-21T09:00:00.000Z",12]
