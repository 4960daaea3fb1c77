-- modules/people/people.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- anyOrganizationExists
select "id" from "organizations" limit ?;
-- parameters: [1]

-- findOrganization
select "id", "slug", "name", "created_at" from "organizations" where "id" = ?;
-- parameters: [1]
-- (stops here without a row: no result)

-- insertOrganization
insert into "organizations" ("name", "slug", "created_at") values (?, ?, ?) returning "id";
-- parameters: ["Acme","acme","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- renameOrganization
update "organizations" set "name" = ? where "id" = ?;
-- parameters: ["Acme Inc.",1]

-- lockOrganization

-- peopleOf
select "id", "kind", "email", "name", "handle", "role", "active", "created_at" from "users" where "organization_id" = ? order by "id";
-- parameters: [1]

-- peopleSharingAProjectWith
select "id", "kind", "email", "name", "handle", "role", "active", "created_at" from "users" where "organization_id" = ? and ("id" = ? or "id" in (select "theirs"."user_id" from "project_memberships" as "theirs" inner join "project_memberships" as "mine" on "mine"."project_id" = "theirs"."project_id" where "mine"."user_id" = ?)) order by "id";
-- parameters: [1,3,3]

-- findPersonIn
select "id", "kind", "email", "name", "handle", "role", "active", "created_at" from "users" where "id" = ? and "organization_id" = ?;
-- parameters: [3,1]

-- findUser
select "id", "kind", "active", "password_hash" from "users" where "id" = ?;
-- parameters: [3]

-- emailTakenIn
select "id" from "users" where "organization_id" = ? and lower("email") = ?;
-- parameters: [1,"ada@example.test"]

-- hasAnotherActiveOwner
select "id" from "users" where "organization_id" = ? and "role" = ? and "active" = ? and "id" <> ? limit ?;
-- parameters: [1,"owner",1,3,1]

-- insertUser
insert into "users" ("organization_id", "kind", "name", "email", "handle", "role", "created_at", "password_hash") values (?, ?, ?, ?, ?, ?, ?, ?) returning "id", "kind", "email", "name", "handle", "role", "active", "created_at";
-- parameters: [1,"human","Ada","ada@example.test","ada","member","2026-11-21T09:00:00.000Z","$argon2id$..."]
-- (stops here without a row: no result)

-- setRoleAndActive
update "users" set "role" = ?, "active" = ? where "id" = ?;
-- parameters: ["admin",1,3]
update "password_resets" set "used_at" = ? where "user_id" = ? and "used_at" is null;
-- parameters: ["2026-11-21T09:00:00.000Z",3]

-- renamePerson
update "users" set "name" = ? where "id" = ?;
-- parameters: ["Ada L.",3]

-- setPasswordHash
update "users" set "password_hash" = ? where "id" = ?;
-- parameters: ["$argon2id$...",3]
update "password_resets" set "used_at" = ? where "user_id" = ? and "used_at" is null;
-- parameters: ["2026-11-21T09:00:00.000Z",3]

-- insertSetupToken
insert into "setup_tokens" ("token_hash", "created_at", "expires_at", "used_at") values (?, ?, ?, ?);
-- parameters: ["sha256","2026-11-21T09:00:00.000Z","2026-11-22T09:00:00.000Z",null]

-- findLiveSetupToken
select "id" from "setup_tokens" where "token_hash" = ? and "used_at" is null and "expires_at" > ?;
-- parameters: ["sha256","2026-11-21T09:00:00.000Z"]

-- useSetupToken
update "setup_tokens" set "used_at" = ? where "token_hash" = ? and "used_at" is null and "expires_at" > ?;
-- parameters: ["2026-11-21T09:00:00.000Z","sha256","2026-11-21T09:00:00.000Z"]

-- burnSetupTokens
update "setup_tokens" set "used_at" = ? where "used_at" is null;
-- parameters: ["2026-11-21T09:00:00.000Z"]

-- insertInvitation
insert into "invitations" ("organization_id", "email", "role", "token_hash", "invited_by", "created_at", "expires_at", "accepted_at", "accepted_user_id", "revoked_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning "id", "email", "role", "created_at", "expires_at";
-- parameters: [1,"bob@example.test","member","sha256",3,"2026-11-21T09:00:00.000Z","2026-11-28T09:00:00.000Z",null,null,null]
-- (stops here without a row: no result)

-- openInvitationsOf
select "i"."id", "i"."email", "i"."role", "i"."created_at", "i"."expires_at", "u"."id" as "inviter_id", "u"."name" as "inviter_name" from "invitations" as "i" left join "users" as "u" on "u"."id" = "i"."invited_by" where "i"."organization_id" = ? and "i"."accepted_at" is null and "i"."revoked_at" is null and "i"."expires_at" > ? order by "i"."id";
-- parameters: [1,"2026-11-21T09:00:00.000Z"]

-- revokeOpenInvitation
update "invitations" set "revoked_at" = ? where "id" = ? and "organization_id" = ? and "accepted_at" is null and "revoked_at" is null returning "email";
-- parameters: ["2026-11-21T09:00:00.000Z",8,1]

-- findOpenInvitation
select "i"."id", "i"."email", "i"."role", "i"."expires_at", "i"."organization_id", "o"."name" as "organization_name", "o"."slug" as "organization_slug", "i"."invited_by", "issuer"."role" as "issuer_role", "issuer"."active" as "issuer_active" from "invitations" as "i" inner join "organizations" as "o" on "o"."id" = "i"."organization_id" left join "users" as "issuer" on "issuer"."id" = "i"."invited_by" and "issuer"."organization_id" = "i"."organization_id" where "i"."token_hash" = ? and "i"."accepted_at" is null and "i"."revoked_at" is null and "i"."expires_at" > ?;
-- parameters: ["sha256","2026-11-21T09:00:00.000Z"]

-- claimInvitation
update "invitations" set "accepted_at" = ? where "id" = ? and "accepted_at" is null;
-- parameters: ["2026-11-21T09:00:00.000Z",8]

-- setInvitationAccount
update "invitations" set "accepted_user_id" = ? where "id" = ?;
-- parameters: [9,8]

-- insertPasswordReset
insert into "password_resets" ("user_id", "token_hash", "created_by", "created_at", "expires_at", "used_at") values (?, ?, ?, ?, ?, ?);
-- parameters: [3,"sha256",null,"2026-11-21T09:00:00.000Z","2026-11-21T10:00:00.000Z",null]

-- findLivePasswordReset
select "r"."id", "r"."user_id", "u"."active", "u"."role", "r"."created_by", "issuer"."role" as "issuer_role", "issuer"."active" as "issuer_active" from "password_resets" as "r" inner join "users" as "u" on "u"."id" = "r"."user_id" left join "users" as "issuer" on "issuer"."id" = "r"."created_by" and "issuer"."organization_id" = "u"."organization_id" where "r"."token_hash" = ? and "r"."used_at" is null and "r"."expires_at" > ?;
-- parameters: ["sha256","2026-11-21T09:00:00.000Z"]

-- usePasswordReset
update "password_resets" set "used_at" = ? where "id" = ? and "used_at" is null;
-- parameters: ["2026-11-21T09:00:00.000Z",5]

-- endOpenResetLinksOf
update "password_resets" set "used_at" = ? where "user_id" = ? and "used_at" is null;
-- parameters: ["2026-11-21T09:00:00.000Z",3]
