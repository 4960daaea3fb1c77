-- modules/planning/planning.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- labelsPage
select "l"."id", "l"."project_id", "lp"."key" as "project", "l"."name", "l"."color", "l"."description", (select count(*) as "n" from "task_labels" as "tl" where "tl"."label_id" = "l"."id") as "task_count", "l"."created_at", "l"."updated_at" from "labels" as "l" inner join "projects" as "lp" on "lp"."id" = "l"."project_id" where "l"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "l"."project_id" = $5 order by "l"."name" asc, "l"."id" asc limit $6 offset $7;
-- parameters: [3,1,10,11,10,50,0]
select count(*) as "count" from "labels" as "l" inner join "projects" as "lp" on "lp"."id" = "l"."project_id" where "l"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "l"."project_id" = $5;
-- parameters: [3,1,10,11,10]
-- (stops here without a row: no result)

-- milestonesPage
select "m"."id", "m"."project_id", "mp"."key" as "project", "m"."name", "m"."description", "m"."due_date", coalesce(m.due_date, '9999-12-31') as "due_date_sort", "m"."state", (select count(*) as "n" from "tasks" as "mt" where "mt"."milestone_id" = "m"."id") as "task_count", "m"."created_at", "m"."updated_at" from "milestones" as "m" inner join "projects" as "mp" on "mp"."id" = "m"."project_id" where "m"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "m"."project_id" = $5 and "m"."state" = $6 order by "due_date_sort" asc, "m"."id" asc limit $7 offset $8;
-- parameters: [3,1,10,11,10,"open",50,0]
select count(*) as "count" from "milestones" as "m" inner join "projects" as "mp" on "mp"."id" = "m"."project_id" where "m"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "m"."project_id" = $5 and "m"."state" = $6;
-- parameters: [3,1,10,11,10,"open"]
-- (stops here without a row: no result)

-- sprintsPage
select "sp"."id", "sp"."project_id", "spp"."key" as "project", "sp"."name", "sp"."goal", "sp"."start_date", "sp"."end_date", coalesce(sp.start_date, '9999-12-31') as "start_date_sort", coalesce(sp.end_date, '9999-12-31') as "end_date_sort", "sp"."state", (select count(*) as "n" from "tasks" as "st" where "st"."sprint_id" = "sp"."id") as "task_count", "sp"."created_at", "sp"."updated_at" from "sprints" as "sp" inner join "projects" as "spp" on "spp"."id" = "sp"."project_id" where "sp"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "sp"."project_id" = $5 and "sp"."state" = $6 order by "start_date_sort" asc, "sp"."id" asc limit $7 offset $8;
-- parameters: [3,1,10,11,10,"active",50,0]
select count(*) as "count" from "sprints" as "sp" inner join "projects" as "spp" on "spp"."id" = "sp"."project_id" where "sp"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "sp"."project_id" = $5 and "sp"."state" = $6;
-- parameters: [3,1,10,11,10,"active"]
-- (stops here without a row: no result)

-- findVisibleLabel
select "l"."id", "l"."project_id", "lp"."key" as "project", "l"."name", "l"."color", "l"."description", (select count(*) as "n" from "task_labels" as "tl" where "tl"."label_id" = "l"."id") as "task_count", "l"."created_at", "l"."updated_at" from "labels" as "l" inner join "projects" as "lp" on "lp"."id" = "l"."project_id" where "l"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "l"."id" = $5;
-- parameters: [3,1,10,11,5]

-- findVisibleMilestone
select "m"."id", "m"."project_id", "mp"."key" as "project", "m"."name", "m"."description", "m"."due_date", coalesce(m.due_date, '9999-12-31') as "due_date_sort", "m"."state", (select count(*) as "n" from "tasks" as "mt" where "mt"."milestone_id" = "m"."id") as "task_count", "m"."created_at", "m"."updated_at" from "milestones" as "m" inner join "projects" as "mp" on "mp"."id" = "m"."project_id" where "m"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "m"."id" = $5;
-- parameters: [3,1,10,11,5]

-- findVisibleSprint
select "sp"."id", "sp"."project_id", "spp"."key" as "project", "sp"."name", "sp"."goal", "sp"."start_date", "sp"."end_date", coalesce(sp.start_date, '9999-12-31') as "start_date_sort", coalesce(sp.end_date, '9999-12-31') as "end_date_sort", "sp"."state", (select count(*) as "n" from "tasks" as "st" where "st"."sprint_id" = "sp"."id") as "task_count", "sp"."created_at", "sp"."updated_at" from "sprints" as "sp" inner join "projects" as "spp" on "spp"."id" = "sp"."project_id" where "sp"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $1 where "p"."organization_id" = $2 and "p"."id" in ($3, $4)) and "sp"."id" = $5;
-- parameters: [3,1,10,11,5]

-- insertLabel
insert into "labels" ("project_id", "name", "color", "description", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6) returning "id";
-- parameters: [10,"bug","#d73a4a","","2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- insertMilestone
insert into "milestones" ("project_id", "name", "description", "due_date", "state", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7) returning "id";
-- parameters: [10,"v1","","2026-12-01","open","2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- insertSprint
insert into "sprints" ("project_id", "name", "goal", "start_date", "end_date", "state", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8) returning "id";
-- parameters: [10,"Sprint 1","","2026-11-23","2026-12-04","planned","2026-11-21T09:00:00.000Z","2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- updateLabelFields
update "labels" set "color" = $1, "updated_at" = $2 where "id" = $3;
-- parameters: ["#ededed","2026-11-21T09:00:00.000Z",5]

-- updateMilestoneFields
update "milestones" set "state" = $1, "updated_at" = $2 where "id" = $3;
-- parameters: ["closed","2026-11-21T09:00:00.000Z",5]

-- updateSprintFields
update "sprints" set "state" = $1, "updated_at" = $2 where "id" = $3;
-- parameters: ["active","2026-11-21T09:00:00.000Z",5]

-- deletePlanningRow
delete from "sprints" where "id" = $1;
-- parameters: [5]

-- findOtherActiveSprint
select "id", "name" from "sprints" where "project_id" = $1 and "state" = $2 and "id" != $3;
-- parameters: [10,"active",5]

-- findSprintNamed
select "id" from "sprints" where "project_id" = $1 and "name" = $2 and "id" != $3;
-- parameters: [10,"Sprint 1",5]

-- tasksCarrying
select "task_id" from "task_labels" where "label_id" = $1 order by "task_id";
-- parameters: [5]
select "id" from "tasks" where "milestone_id" = $1 order by "id";
-- parameters: [5]

-- openTasksOfSprint
select "t"."id" from "tasks" as "t" inner join "statuses" as "s" on "s"."id" = "t"."status_id" where "t"."sprint_id" = $1 and "s"."category" != $2 order by "t"."id";
-- parameters: [5,"done"]
