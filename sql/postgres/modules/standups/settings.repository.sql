-- modules/standups/settings.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- findSettings
select * from "standup_settings" where "organization_id" = $1;
-- parameters: [1]

-- ensureSettings
insert into "standup_settings" ("organization_id", "timezone", "days", "reminder_time", "questions", "updated_by", "updated_at") values ($1, $2, $3, $4, $5, $6, $7) on conflict ("organization_id") do nothing;
-- parameters: [1,"Europe/Berlin","[\"mon\",\"tue\"]","09:30","[\"What is next?\"]",null,"2026-11-21T09:00:00.000Z"]

-- lockSettings
select "organization_id" from "standup_settings" where "organization_id" = $1 for update;
-- parameters: [1]

-- updateSettings
update "standup_settings" set "timezone" = $1, "days" = $2, "reminder_time" = $3, "questions" = $4, "updated_by" = $5, "updated_at" = $6 where "organization_id" = $7;
-- parameters: ["Europe/Berlin","[\"mon\",\"tue\"]","09:30","[\"What is next?\"]",3,"2026-11-21T09:00:00.000Z",1]
