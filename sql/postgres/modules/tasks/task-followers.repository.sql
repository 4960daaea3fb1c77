-- modules/tasks/task-followers.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- insertFollower
insert into "task_followers" ("task_id", "user_id", "created_at") values ($1, $2, $3) on conflict ("task_id", "user_id") do nothing;
-- parameters: [42,3,"2026-11-21T09:00:00.000000Z"]

-- findFollowing
select "created_at" from "task_followers" where "task_id" = $1 and "user_id" = $2;
-- parameters: [42,3]

-- deleteFollower
delete from "task_followers" where "task_id" = $1 and "user_id" = $2;
-- parameters: [42,3]

-- insertUnfollow
insert into "task_unfollows" ("task_id", "user_id", "created_at") values ($1, $2, $3) on conflict ("task_id", "user_id") do nothing;
-- parameters: [42,3,"2026-11-21T09:00:00.000000Z"]

-- deleteUnfollow
delete from "task_unfollows" where "task_id" = $1 and "user_id" = $2;
-- parameters: [42,3]

-- followersPage
select "f"."id", "u"."id" as "user", "u"."name", "u"."kind", "f"."created_at" as "followed_at" from "task_followers" as "f" inner join "users" as "u" on "u"."id" = "f"."user_id" where "f"."task_id" = $1 order by "f"."created_at" asc, "f"."id" asc limit $2 offset $3;
-- parameters: [42,50,0]
select count(*) as "count" from "task_followers" as "f" inner join "users" as "u" on "u"."id" = "f"."user_id" where "f"."task_id" = $1;
-- parameters: [42]
-- (stops here without a row: no result)
