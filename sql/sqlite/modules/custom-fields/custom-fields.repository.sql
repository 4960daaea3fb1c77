-- modules/custom-fields/custom-fields.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- selectFields
select "f"."id", "f"."name", "f"."type", "f"."description", "f"."required", "f"."all_projects", "f"."created_at", "f"."updated_at" from "custom_fields" as "f" where "f"."organization_id" = ?;
-- parameters: [1]

-- optionsByField
select "id", "field_id", "value", "position" from "custom_field_options" where "field_id" in (?, ?) order by "position", "id";
-- parameters: [9,10]

-- projectsByField
select "field_id", "project_id" from "custom_field_projects" where "field_id" in (?, ?) order by "project_id";
-- parameters: [9,10]

-- lockFields

-- optionUsage
SELECT DISTINCT option_id FROM (SELECT j.value AS option_id, v.task_id
            FROM task_custom_values v, json_each(v.value) j
            WHERE v.field_id = ? AND j.value IN (?, ?)) u ORDER BY option_id;
-- parameters: [9,21,22]

-- customValuesByTask
select "task_id", "field_id", "value" from "task_custom_values" where "task_id" in (?, ?) order by "field_id";
-- parameters: [42,43]

-- visibleFields
select "f"."id", "f"."name", "f"."type", "f"."description", "f"."required", "f"."all_projects", "f"."created_at", "f"."updated_at" from "custom_fields" as "f" where "f"."organization_id" = ? and "f"."id" in (select "vf"."id" from "custom_fields" as "vf" where "vf"."organization_id" = ? and ("vf"."all_projects" = ? or not exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id") or exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id" and "vfp"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)))));
-- parameters: [1,1,1,3,1,10,11]

-- visibleFieldIdsAmong
select "vf"."id" from "custom_fields" as "vf" where "vf"."organization_id" = ? and ("vf"."all_projects" = ? or not exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id") or exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id" and "vfp"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)))) and "vf"."id" in (?, ?);
-- parameters: [1,1,3,1,10,11,9,12]

-- fieldsPage
select "f"."id", "f"."name", "f"."type", "f"."description", "f"."required", "f"."all_projects", "f"."created_at", "f"."updated_at" from "custom_fields" as "f" where "f"."organization_id" = ? and "f"."id" in (select "vf"."id" from "custom_fields" as "vf" where "vf"."organization_id" = ? and ("vf"."all_projects" = ? or not exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id") or exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id" and "vfp"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?))))) and ("f"."all_projects" = ? or exists (select "fp"."id" from "custom_field_projects" as "fp" where "fp"."field_id" = "f"."id" and "fp"."project_id" = ?)) order by "f"."name" asc, "f"."id" asc limit ? offset ?;
-- parameters: [1,1,1,3,1,10,11,1,10,50,0]
select count(*) as "count" from "custom_fields" as "f" where "f"."organization_id" = ? and "f"."id" in (select "vf"."id" from "custom_fields" as "vf" where "vf"."organization_id" = ? and ("vf"."all_projects" = ? or not exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id") or exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id" and "vfp"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?))))) and ("f"."all_projects" = ? or exists (select "fp"."id" from "custom_field_projects" as "fp" where "fp"."field_id" = "f"."id" and "fp"."project_id" = ?));
-- parameters: [1,1,1,3,1,10,11,1,10]
-- (stops here without a row: no result)

-- findVisibleField
select "f"."id", "f"."name", "f"."type", "f"."description", "f"."required", "f"."all_projects", "f"."created_at", "f"."updated_at" from "custom_fields" as "f" where "f"."organization_id" = ? and "f"."id" in (select "vf"."id" from "custom_fields" as "vf" where "vf"."organization_id" = ? and ("vf"."all_projects" = ? or not exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id") or exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id" and "vfp"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?))))) and "f"."id" = ?;
-- parameters: [1,1,1,3,1,10,11,9]

-- insertField
insert into "custom_fields" ("organization_id", "name", "type", "description", "required", "all_projects", "created_by", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning "id";
-- parameters: [1,"Customer","text","",0,1,3,"2026-11-21T09:00:00.000000Z","2026-11-21T09:00:00.000000Z"]
-- (stops here without a row: no result)

-- updateFieldColumns
update "custom_fields" set "name" = ?, "updated_at" = ? where "id" = ?;
-- parameters: ["Client","2026-11-21T09:00:00.000000Z",9]

-- deleteField
delete from "custom_fields" where "id" = ?;
-- parameters: [9]

-- replaceFieldProjects
delete from "custom_field_projects" where "field_id" = ?;
-- parameters: [9]
insert into "custom_field_projects" ("field_id", "project_id") values (?, ?), (?, ?);
-- parameters: [9,10,9,11]

-- projectIdsOfOrganization
select "id" from "projects" where "organization_id" = ?;
-- parameters: [1]

-- holdersOutside
select count(*) as "n" from "task_custom_values" as "v" inner join "tasks" as "t" on "t"."id" = "v"."task_id" where "v"."field_id" = ? and "t"."project_id" not in (?, ?);
-- parameters: [9,10,11]
-- (stops here without a row: no result)

-- holdersOf
select "task_id" from "task_custom_values" where "field_id" = ? order by "task_id";
-- parameters: [9]

-- insertOptions
insert into "custom_field_options" ("field_id", "value", "position") values (?, ?, ?), (?, ?, ?);
-- parameters: [9,"High",0,9,"Low",1]

-- updateOption
update "custom_field_options" set "value" = ?, "position" = ? where "id" = ?;
-- parameters: ["Critical",0,21]

-- deleteOptions
delete from "custom_field_options" where "id" in (?, ?);
-- parameters: [21,22]

-- findVisibleOption
select "o"."id", "o"."field_id" as "field", "o"."value", "o"."position" from "custom_field_options" as "o" inner join "custom_fields" as "f" on "f"."id" = "o"."field_id" where "o"."id" = ? and "f"."id" in (select "vf"."id" from "custom_fields" as "vf" where "vf"."organization_id" = ? and ("vf"."all_projects" = ? or not exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id") or exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id" and "vfp"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? where "p"."organization_id" = ? and "p"."id" in (?, ?)))));
-- parameters: [21,1,1,3,1,10,11]

-- otherOptionWithValue
select "id" from "custom_field_options" where "field_id" = ? and "value" = ? and "id" != ?;
-- parameters: [9,"Critical",21]

-- fieldsForTaskWrite
select "f"."id", "f"."name", "f"."type", "f"."required", ("f"."all_projects" = ? or exists (select "fp"."id" from "custom_field_projects" as "fp" where "fp"."field_id" = "f"."id" and "fp"."project_id" = ?)) as "applies" from "custom_fields" as "f" where "f"."organization_id" = ? and ("f"."id" in (?, ?) or "f"."required" = ?);
-- parameters: [1,10,1,9,12,1]
