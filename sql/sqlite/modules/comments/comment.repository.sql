-- modules/comments/comment.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- commentsOfTask
select "c"."id", "t"."key" as "task_key", "c"."author_id", "u"."name" as "author_name", "c"."body", "c"."created_at", "c"."updated_at", "c"."edited_at" from "comments" as "c" inner join "tasks" as "t" on "t"."id" = "c"."task_id" left join "users" as "u" on "u"."id" = "c"."author_id" where "c"."task_id" = ? order by "c"."created_at" asc, "c"."id" asc limit ? offset ?;
-- parameters: [42,50,0]
select count(*) as "count" from "comments" as "c" inner join "tasks" as "t" on "t"."id" = "c"."task_id" left join "users" as "u" on "u"."id" = "c"."author_id" where "c"."task_id" = ?;
-- parameters: [42]
-- (stops here without a row: no result)

-- findComment
select "c"."id", "t"."key" as "task_key", "c"."author_id", "u"."name" as "author_name", "c"."body", "c"."created_at", "c"."updated_at", "c"."edited_at" from "comments" as "c" inner join "tasks" as "t" on "t"."id" = "c"."task_id" left join "users" as "u" on "u"."id" = "c"."author_id" where "c"."id" = ?;
-- parameters: [7]

-- findVisibleComment
select "c"."id", "c"."author_id", "c"."body", "p"."id" as "project_id", "pm"."role", "t"."key" as "task_key", "t"."title" as "task_title" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? inner join "tasks" as "t" on "t"."project_id" = "p"."id" inner join "comments" as "c" on "c"."task_id" = "t"."id" where "p"."organization_id" = ? and "p"."id" in (?, ?) and "c"."id" = ?;
-- parameters: [3,1,10,11,7]

-- insertComment
insert into "comments" ("task_id", "author_id", "body", "edited_at", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?) returning "id";
-- parameters: [42,3,"Looks good",null,"2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- updateCommentBody
update "comments" set "body" = ?, "updated_at" = ?, "edited_at" = ? where "id" = ?;
-- parameters: ["Edited","2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z",7]

-- deleteComment
delete from "comments" where "id" = ?;
-- parameters: [7]
