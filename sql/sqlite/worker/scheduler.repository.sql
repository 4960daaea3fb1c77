-- worker/scheduler.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- tasksDueSoon
select "t"."id", "t"."project_id", "t"."number", "t"."key", "t"."title", "t"."description", "t"."task_type_id", "t"."priority_id", "t"."status_id", "t"."assignee_id", "t"."parent_id", "t"."due_date", "t"."start_date", "t"."estimate", "t"."milestone_id", "t"."sprint_id", "t"."version", "t"."created_by", "t"."created_at", "t"."updated_at", "p"."key" as "project_key", "tt"."name" as "task_type", "pr"."name" as "priority", "s"."name" as "status", "s"."category" as "status_category", "pt"."key" as "parent_key", "o"."id" as "organization_id", "o"."slug" as "organization_slug", "o"."name" as "organization_name" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" inner join "task_types" as "tt" on "tt"."id" = "t"."task_type_id" inner join "priorities" as "pr" on "pr"."id" = "t"."priority_id" left join "tasks" as "pt" on "pt"."id" = "t"."parent_id" inner join "organizations" as "o" on "o"."id" = "p"."organization_id" where "t"."due_date" is not null and "t"."due_date" >= ? and "t"."due_date" < ? and "s"."category" != ? and not exists (select "n"."id" from "task_due_notices" as "n" where "n"."task_id" = "t"."id" and "n"."due_date" = "t"."due_date") order by "t"."id" limit ?;
-- parameters: ["2026-11-21","2026-11-22","done",200]

-- tasksOverdue
select "t"."id", "t"."project_id", "t"."number", "t"."key", "t"."title", "t"."description", "t"."task_type_id", "t"."priority_id", "t"."status_id", "t"."assignee_id", "t"."parent_id", "t"."due_date", "t"."start_date", "t"."estimate", "t"."milestone_id", "t"."sprint_id", "t"."version", "t"."created_by", "t"."created_at", "t"."updated_at", "p"."key" as "project_key", "tt"."name" as "task_type", "pr"."name" as "priority", "s"."name" as "status", "s"."category" as "status_category", "pt"."key" as "parent_key", "o"."id" as "organization_id", "o"."slug" as "organization_slug", "o"."name" as "organization_name" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" inner join "task_types" as "tt" on "tt"."id" = "t"."task_type_id" inner join "priorities" as "pr" on "pr"."id" = "t"."priority_id" left join "tasks" as "pt" on "pt"."id" = "t"."parent_id" inner join "organizations" as "o" on "o"."id" = "p"."organization_id" where "t"."due_date" is not null and "t"."due_date" < ? and "t"."assignee_id" is not null and "s"."category" != ? and not exists (select "n"."id" from "task_overdue_notices" as "n" where "n"."task_id" = "t"."id" and "n"."due_date" = "t"."due_date") order by "t"."id" limit ?;
-- parameters: ["2026-11-21","done",200]

-- claimOverdueNotice
insert into "task_overdue_notices" ("task_id", "due_date", "created_at") values (?, ?, ?) on conflict ("task_id", "due_date") do nothing returning "id";
-- parameters: [42,"2026-11-20","2026-11-21T09:00:00.000Z"]

-- stuckTasks
select "t"."id", "t"."project_id", "t"."number", "t"."key", "t"."title", "t"."description", "t"."task_type_id", "t"."priority_id", "t"."status_id", "t"."assignee_id", "t"."parent_id", "t"."due_date", "t"."start_date", "t"."estimate", "t"."milestone_id", "t"."sprint_id", "t"."version", "t"."created_by", "t"."created_at", "t"."updated_at", "p"."key" as "project_key", "tt"."name" as "task_type", "pr"."name" as "priority", "s"."name" as "status", "s"."category" as "status_category", "pt"."key" as "parent_key", "o"."id" as "organization_id", "o"."slug" as "organization_slug", "o"."name" as "organization_name" from "tasks" as "t" inner join "projects" as "p" on "p"."id" = "t"."project_id" inner join "statuses" as "s" on "s"."id" = "t"."status_id" inner join "task_types" as "tt" on "tt"."id" = "t"."task_type_id" inner join "priorities" as "pr" on "pr"."id" = "t"."priority_id" left join "tasks" as "pt" on "pt"."id" = "t"."parent_id" inner join "organizations" as "o" on "o"."id" = "p"."organization_id" where "s"."category" = ? and "t"."updated_at" <= ? and not exists (select "x"."id" from "task_escalations" as "x" where "x"."task_id" = "t"."id" and "x"."stuck_since" = "t"."updated_at") order by "t"."id" limit ?;
-- parameters: ["in_progress","2026-11-18T09:00:00.000Z",200]

-- claimDueNotice
insert into "task_due_notices" ("task_id", "due_date", "created_at") values (?, ?, ?) on conflict ("task_id", "due_date") do nothing returning "id";
-- parameters: [42,"2026-11-21","2026-11-21T09:00:00.000Z"]

-- claimEscalation
insert into "task_escalations" ("task_id", "stuck_since", "created_at") values (?, ?, ?) on conflict ("task_id", "stuck_since") do nothing returning "id";
-- parameters: [42,"2026-11-18T08:00:00.000Z","2026-11-21T09:00:00.000Z"]
