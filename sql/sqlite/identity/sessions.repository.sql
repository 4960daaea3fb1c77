-- identity/sessions.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- insertSession
insert into "sessions" ("user_id", "token_hash", "created_at", "last_seen_at", "expires_at", "revoked_at", "user_agent", "ip") values (?, ?, ?, ?, ?, ?, ?, ?) returning "id", "user_id", "created_at", "last_seen_at", "expires_at";
-- parameters: [3,"sha256","2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z","2026-12-21T09:00:00.000Z",null,"Firefox","192.0.2.1"]
-- (stops here without a row: no result)

-- findSessionByTokenHash
select "u"."id" as "user_id", "u"."name" as "user_name", "u"."email" as "user_email", "u"."kind" as "user_kind", "u"."role", "u"."active" as "user_active", "o"."id" as "organization_id", "o"."slug" as "organization_slug", "o"."name" as "organization_name", "s"."id", "s"."created_at", "s"."last_seen_at", "s"."expires_at", "s"."revoked_at" from "users" as "u" inner join "organizations" as "o" on "o"."id" = "u"."organization_id" inner join "sessions" as "s" on "s"."user_id" = "u"."id" where "s"."token_hash" = ?;
-- parameters: ["sha256"]

-- sessionStates
select "s"."id", "s"."revoked_at", "s"."expires_at", "s"."last_seen_at", "u"."active" as "user_active" from "sessions" as "s" inner join "users" as "u" on "u"."id" = "s"."user_id" where "s"."id" in (?, ?);
-- parameters: [4,5]

-- touchSession
update "sessions" set "last_seen_at" = ? where "id" = ?;
-- parameters: ["2026-11-21T09:00:00.000Z",4]

-- findSessionOf
select "id", "revoked_at" from "sessions" where "id" = ? and "user_id" = ?;
-- parameters: [4,3]

-- revokeSessionRow
update "sessions" set "revoked_at" = ? where "id" = ?;
-- parameters: ["2026-11-21T09:00:00.000Z",4]

-- revokeSessionsOf
update "sessions" set "revoked_at" = ? where "user_id" = ? and "revoked_at" is null and "id" <> ?;
-- parameters: ["2026-11-21T09:00:00.000Z",3,4]

-- liveSessionsOf
select "id", "created_at", "last_seen_at", "expires_at", "user_agent", "ip" from "sessions" where "user_id" = ? and "revoked_at" is null and "expires_at" > ? order by "id" desc;
-- parameters: [3,"2026-11-21T09:00:00.000Z"]

-- deleteEndedSessions
delete from "sessions" where ("expires_at" < ? or "revoked_at" < ? or "last_seen_at" < ?);
-- parameters: ["2026-10-22T09:00:00.000Z","2026-10-22T09:00:00.000Z","2026-10-21T09:00:00.000Z"]

-- deleteExpiredLinks
delete from "setup_tokens" where "expires_at" < ?;
-- parameters: ["2026-10-22T09:00:00.000Z"]
delete from "password_resets" where "expires_at" < ?;
-- parameters: ["2026-10-22T09:00:00.000Z"]
delete from "invitations" where "accepted_at" is null and "expires_at" < ?;
-- parameters: ["2026-10-22T09:00:00.000Z"]
