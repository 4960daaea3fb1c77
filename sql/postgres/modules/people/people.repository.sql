-- modules/people/people.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- anyOrganizationExists
select "id" from "organizations" limit $1;
-- parameters: [1]

-- findOrganization
select "id", "slug", "name", "created_at" from "organizations" where "id" = $1;
-- parameters: [1]
-- (stops here without a row: no result)

-- insertOrganization
insert into "organizations" ("name", "slug", "created_at") values ($1, $2, $3) returning "id";
-- parameters: ["Acme","acme","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- renameOrganization
update "organizations" set "name" = $1 where "id" = $2;
-- parameters: ["Acme Inc.",1]

-- lockOrganization
select "id" from "organizations" where "id" = $1 for update;
-- parameters: [1]

-- peopleOf
select "id", "kind", "email", "name", "handle", "role", "active", "created_at" from "users" where "organization_id" = $1 order by "id";
-- parameters: [1]

-- peopleSharingAProjectWith
select "id", "kind", "email", "name", "handle", "role", "active", "created_at" from "users" where "organization_id" = $1 and ("id" = $2 or "id" in (select "theirs"."user_id" from "project_memberships" as "theirs" inner join "project_memberships" as "mine" on "mine"."project_id" = "theirs"."project_id" where "mine"."user_id" = $3)) order by "id";
-- parameters: [1,3,3]

-- findPersonIn
select "id", "kind", "email", "name", "handle", "role", "active", "created_at" from "users" where "id" = $1 and "organization_id" = $2;
-- parameters: [3,1]

-- findUser
select "id", "kind", "active", "password_hash" from "users" where "id" = $1;
-- parameters: [3]

-- emailTakenIn
select "id" from "users" where "organization_id" = $1 and lower("email") = $2;
-- parameters: [1,"ada@example.test"]

-- hasAnotherActiveOwner
select "id" from "users" where "organization_id" = $1 and "role" = $2 and "active" = $3 and "id" <> $4 limit $5;
-- parameters: [1,"owner",1,3,1]

-- insertUser
insert into "users" ("organization_id", "kind", "name", "email", "handle", "role", "created_at", "password_hash") values ($1, $2, $3, $4, $5, $6, $7, $8) returning "id", "kind", "email", "name", "handle", "role", "active", "created_at";
-- parameters: [1,"human","Ada","ada@example.test","ada","member","2026-11-21T09:00:00.000Z","$argon2id$..."]
-- (stops here without a row: no result)

-- setRoleAndActive
update "users" set "role" = $1, "active" = $2 where "id" = $3;
-- parameters: ["admin",1,3]
update "password_resets" set "used_at" = $1 where "user_id" = $2 and "used_at" is null;
-- parameters: ["2026-11-21T09:00:00.000Z",3]

-- renamePerson
update "users" set "name" = $1 where "id" = $2;
-- parameters: ["Ada L.",3]

-- setPasswordHash
update "users" set "password_hash" = $1 where "id" = $2;
-- parameters: ["$argon2id$...",3]
update "password_resets" set "used_at" = $1 where "user_id" = $2 and "used_at" is null;
-- parameters: ["2026-11-21T09:00:00.000Z",3]

-- insertSetupToken
insert into "setup_tokens" ("token_hash", "created_at", "expires_at", "used_at") values ($1, $2, $3, $4);
-- parameters: ["sha256","2026-11-21T09:00:00.000Z","2026-11-22T09:00:00.000Z",null]

-- findLiveSetupToken
select "id" from "setup_tokens" where "token_hash" = $1 and "used_at" is null and "expires_at" > $2;
-- parameters: ["sha256","2026-11-21T09:00:00.000Z"]

-- useSetupToken
update "setup_tokens" set "used_at" = $1 where "token_hash" = $2 and "used_at" is null and "expires_at" > $3;
-- parameters: ["2026-11-21T09:00:00.000Z","sha256","2026-11-21T09:00:00.000Z"]

-- burnSetupTokens
update "setup_tokens" set "used_at" = $1 where "used_at" is null;
-- parameters: ["2026-11-21T09:00:00.000Z"]

-- insertInvitation
insert into "invitations" ("organization_id", "email", "role", "token_hash", "invited_by", "created_at", "expires_at", "accepted_at", "accepted_user_id", "revoked_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning "id", "email", "role", "created_at", "expires_at";
-- parameters: [1,"bob@example.test","member","sha256",3,"2026-11-21T09:00:00.000Z","2026-11-28T09:00:00.000Z",null,null,null]
-- (stops here without a row: no result)

-- openInvitationsOf
select "i"."id", "i"."email", "i"."role", "i"."created_at", "i"."expires_at", "u"."id" as "inviter_id", "u"."name" as "inviter_name" from "invitations" as "i" left join "users" as "u" on "u"."id" = "i"."invited_by" where "i"."organization_id" = $1 and "i"."accepted_at" is null and "i"."revoked_at" is null and "i"."expires_at" > $2 order by "i"."id";
-- parameters: [1,"2026-11-21T09:00:00.000Z"]

-- revokeOpenInvitation
update "invitations" set "revoked_at" = $1 where "id" = $2 and "organization_id" = $3 and "accepted_at" is null and "revoked_at" is null returning "email";
-- parameters: ["2026-11-21T09:00:00.000Z",8,1]

-- findOpenInvitation
select "i"."id", "i"."email", "i"."role", "i"."expires_at", "i"."organization_id", "o"."name" as "organization_name", "o"."slug" as "organization_slug", "i"."invited_by", "issuer"."role" as "issuer_role", "issuer"."active" as "issuer_active" from "invitations" as "i" inner join "organizations" as "o" on "o"."id" = "i"."organization_id" left join "users" as "issuer" on "issuer"."id" = "i"."invited_by" and "issuer"."organization_id" = "i"."organization_id" where "i"."token_hash" = $1 and "i"."accepted_at" is null and "i"."revoked_at" is null and "i"."expires_at" > $2;
-- parameters: ["sha256","2026-11-21T09:00:00.000Z"]

-- claimInvitation
update "invitations" set "accepted_at" = $1 where "id" = $2 and "accepted_at" is null;
-- parameters: ["2026-11-21T09:00:00.000Z",8]

-- setInvitationAccount
update "invitations" set "accepted_user_id" = $1 where "id" = $2;
-- parameters: [9,8]

-- insertPasswordReset
insert into "password_resets" ("user_id", "token_hash", "created_by", "created_at", "expires_at", "used_at") values ($1, $2, $3, $4, $5, $6);
-- parameters: [3,"sha256",null,"2026-11-21T09:00:00.000Z","2026-11-21T10:00:00.000Z",null]

-- findLivePasswordReset
select "r"."id", "r"."user_id", "u"."active", "u"."role", "r"."created_by", "issuer"."role" as "issuer_role", "issuer"."active" as "issuer_active" from "password_resets" as "r" inner join "users" as "u" on "u"."id" = "r"."user_id" left join "users" as "issuer" on "issuer"."id" = "r"."created_by" and "issuer"."organization_id" = "u"."organization_id" where "r"."token_hash" = $1 and "r"."used_at" is null and "r"."expires_at" > $2;
-- parameters: ["sha256","2026-11-21T09:00:00.000Z"]

-- usePasswordReset
update "password_resets" set "used_at" = $1 where "id" = $2 and "used_at" is null;
-- parameters: ["2026-11-21T09:00:00.000Z",5]

-- endOpenResetLinksOf
update "password_resets" set "used_at" = $1 where "user_id" = $2 and "used_at" is null;
-- parameters: ["2026-11-21T09:00:00.000Z",3]
