-- modules/comments/comment.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- commentsOfTask
select "c"."id", "t"."key" as "task_key", "c"."author_id", "u"."name" as "author_name", "c"."body", "c"."created_at", "c"."updated_at", "c"."edited_at" from "comments" as "c" inner join "tasks" as "t" on "t"."id" = "c"."task_id" left join "users" as "u" on "u"."id" = "c"."author_id" where "c"."task_id" = $1 order by "c"."created_at" asc, "c"."id" asc limit $2 offset $3;
-- parameters: [42,50,0]
select count(*) as "count" from "comments" as "c" inner join "tasks" as "t" on "t"."id" = "c"."task_id" left join "users" as "u" on "u"."id" = "c"."author_id" where "c"."task_id" = $1;
-- parameters: [42]
-- (stops here without a row: no result)

-- findComment
select "c"."id", "t"."key" as "task_key", "c"."author_id", "u"."name" as "author_name", "c"."body", "c"."created_at", "c"."updated_at", "c"."edited_at" from "comments" as "c" inner join "tasks" as "t" on "t"."id" = "c"."task_id" left join "users" as "u" on "u"."id" = "c"."author_id" where "c"."id" = $1;
-- parameters: [7]

-- findVisibleComment
select "c"."id", "c"."author_id", "c"."body", "p"."id" as "project_id", "pm"."role", "t"."key" as "task_key", "t"."title" as "task_title" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 inner join "tasks" as "t" on "t"."project_id" = "p"."id" inner join "comments" as "c" on "c"."task_id" = "t"."id" where "p"."organization_id" = $2 and "p"."id" in ($3, $4) and "c"."id" = $5;
-- parameters: [3,1,10,11,7]

-- insertComment
insert into "comments" ("task_id", "author_id", "body", "edited_at", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6) returning "id";
-- parameters: [42,3,"Looks good",null,"2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- updateCommentBody
update "comments" set "body" = $1, "updated_at" = $2, "edited_at" = $3 where "id" = $4;
-- parameters: ["Edited","2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z",7]

-- deleteComment
delete from "comments" where "id" = $1;
-- parameters: [7]
