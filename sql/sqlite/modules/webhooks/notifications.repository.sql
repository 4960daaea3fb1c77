-- modules/webhooks/notifications.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- disableEnabledEndpoint
update "webhook_endpoints" set "enabled" = ?, "disabled_reason" = ?, "updated_at" = ? where "id" = ? and "enabled" = ? returning "id", "url", "organization_id", "created_by", "governed_by", "project_id";
-- parameters: [0,"Disabled automatically.","2026-11-21T09:00:00.000Z",4,1]

-- endpointAudience
select "u"."id" from "users" as "u" where "u"."organization_id" = ? and "u"."active" = ? and ("u"."id" in (?, ?) or "u"."role" in (?, ?)) and exists (select "pm"."project_id" from "project_memberships" as "pm" where "pm"."user_id" = "u"."id" and "pm"."project_id" = ?) order by "u"."id";
-- parameters: [1,1,3,5,"owner","admin",2]
select "u"."id" from "users" as "u" where "u"."organization_id" = ? and "u"."active" = ? and ("u"."id" in (?, ?) or "u"."role" in (?, ?)) and not exists (select "gm"."project_id" from "project_memberships" as "gm" where "gm"."user_id" = ? and not exists (select "pm"."project_id" from "project_memberships" as "pm" where "pm"."project_id" = "gm"."project_id" and "pm"."user_id" = "u"."id")) order by "u"."id";
-- parameters: [1,1,3,5,"owner","admin",5]

-- recentNotifications
select "n"."id", "o"."slug" as "organization", "n"."user_id" as "user", "u"."name" as "user_name", "u"."email" as "user_email", "n"."kind", "n"."reason", "n"."subject", "n"."body", "n"."data", "n"."created_at", "n"."read_at", "n"."emailed_at", "n"."email_error" from "notifications" as "n" inner join "users" as "u" on "u"."id" = "n"."user_id" inner join "organizations" as "o" on "o"."id" = "n"."organization_id" where "o"."slug" = ? order by "n"."id" desc limit ?;
-- parameters: ["acme",50]
