-- modules/custom-fields/custom-fields.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- selectFields
select "f"."id", "f"."name", "f"."type", "f"."description", "f"."required", "f"."all_projects", "f"."created_at", "f"."updated_at" from "custom_fields" as "f" where "f"."organization_id" = $1;
-- parameters: [1]

-- optionsByField
select "id", "field_id", "value", "position" from "custom_field_options" where "field_id" in ($1, $2) order by "position", "id";
-- parameters: [9,10]

-- projectsByField
select "field_id", "project_id" from "custom_field_projects" where "field_id" in ($1, $2) order by "project_id";
-- parameters: [9,10]

-- lockFields
select "id" from "custom_fields" where "id" in ($1, $2) order by "id" for key share;
-- parameters: [9,10]
select "id" from "custom_fields" where "id" in ($1) order by "id" for update;
-- parameters: [9]

-- optionUsage
SELECT DISTINCT option_id FROM (SELECT o AS option_id, v.task_id
            FROM task_custom_values v CROSS JOIN unnest(CAST($1 AS integer[])) AS o
            WHERE v.field_id = $2 AND CAST(v.value AS jsonb) @> to_jsonb(o)) u ORDER BY option_id;
-- parameters: [[21,22],9]

-- customValuesByTask
select "task_id", "field_id", "value" from "task_custom_values" where "task_id" in ($1, $2) order by "field_id";
-- parameters: [42,43]

-- visibleFields
select "f"."id", "f"."name", "f"."type", "f"."description", "f"."required", "f"."all_projects", "f"."created_at", "f"."updated_at" from "custom_fields" as "f" where "f"."organization_id" = $1 and "f"."id" in (select "vf"."id" from "custom_fields" as "vf" where "vf"."organization_id" = $2 and ("vf"."all_projects" = $3 or not exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id") or exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id" and "vfp"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $4 where "p"."organization_id" = $5 and "p"."id" in ($6, $7)))));
-- parameters: [1,1,1,3,1,10,11]

-- visibleFieldIdsAmong
select "vf"."id" from "custom_fields" as "vf" where "vf"."organization_id" = $1 and ("vf"."all_projects" = $2 or not exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id") or exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id" and "vfp"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $3 where "p"."organization_id" = $4 and "p"."id" in ($5, $6)))) and "vf"."id" in ($7, $8);
-- parameters: [1,1,3,1,10,11,9,12]

-- fieldsPage
select "f"."id", "f"."name", "f"."type", "f"."description", "f"."required", "f"."all_projects", "f"."created_at", "f"."updated_at" from "custom_fields" as "f" where "f"."organization_id" = $1 and "f"."id" in (select "vf"."id" from "custom_fields" as "vf" where "vf"."organization_id" = $2 and ("vf"."all_projects" = $3 or not exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id") or exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id" and "vfp"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $4 where "p"."organization_id" = $5 and "p"."id" in ($6, $7))))) and ("f"."all_projects" = $8 or exists (select "fp"."id" from "custom_field_projects" as "fp" where "fp"."field_id" = "f"."id" and "fp"."project_id" = $9)) order by "f"."name" asc, "f"."id" asc limit $10 offset $11;
-- parameters: [1,1,1,3,1,10,11,1,10,50,0]
select count(*) as "count" from "custom_fields" as "f" where "f"."organization_id" = $1 and "f"."id" in (select "vf"."id" from "custom_fields" as "vf" where "vf"."organization_id" = $2 and ("vf"."all_projects" = $3 or not exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id") or exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id" and "vfp"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $4 where "p"."organization_id" = $5 and "p"."id" in ($6, $7))))) and ("f"."all_projects" = $8 or exists (select "fp"."id" from "custom_field_projects" as "fp" where "fp"."field_id" = "f"."id" and "fp"."project_id" = $9));
-- parameters: [1,1,1,3,1,10,11,1,10]
-- (stops here without a row: no result)

-- findVisibleField
select "f"."id", "f"."name", "f"."type", "f"."description", "f"."required", "f"."all_projects", "f"."created_at", "f"."updated_at" from "custom_fields" as "f" where "f"."organization_id" = $1 and "f"."id" in (select "vf"."id" from "custom_fields" as "vf" where "vf"."organization_id" = $2 and ("vf"."all_projects" = $3 or not exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id") or exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id" and "vfp"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $4 where "p"."organization_id" = $5 and "p"."id" in ($6, $7))))) and "f"."id" = $8;
-- parameters: [1,1,1,3,1,10,11,9]

-- insertField
insert into "custom_fields" ("organization_id", "name", "type", "description", "required", "all_projects", "created_by", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning "id";
-- parameters: [1,"Customer","text","",0,1,3,"2026-11-21T09:00:00.000000Z","2026-11-21T09:00:00.000000Z"]
-- (stops here without a row: no result)

-- updateFieldColumns
update "custom_fields" set "name" = $1, "updated_at" = $2 where "id" = $3;
-- parameters: ["Client","2026-11-21T09:00:00.000000Z",9]

-- deleteField
delete from "custom_fields" where "id" = $1;
-- parameters: [9]

-- replaceFieldProjects
delete from "custom_field_projects" where "field_id" = $1;
-- parameters: [9]
insert into "custom_field_projects" ("field_id", "project_id") values ($1, $2), ($3, $4);
-- parameters: [9,10,9,11]

-- projectIdsOfOrganization
select "id" from "projects" where "organization_id" = $1;
-- parameters: [1]

-- holdersOutside
select count(*) as "n" from "task_custom_values" as "v" inner join "tasks" as "t" on "t"."id" = "v"."task_id" where "v"."field_id" = $1 and "t"."project_id" not in ($2, $3);
-- parameters: [9,10,11]
-- (stops here without a row: no result)

-- holdersOf
select "task_id" from "task_custom_values" where "field_id" = $1 order by "task_id";
-- parameters: [9]

-- insertOptions
insert into "custom_field_options" ("field_id", "value", "position") values ($1, $2, $3), ($4, $5, $6);
-- parameters: [9,"High",0,9,"Low",1]

-- updateOption
update "custom_field_options" set "value" = $1, "position" = $2 where "id" = $3;
-- parameters: ["Critical",0,21]

-- deleteOptions
delete from "custom_field_options" where "id" in ($1, $2);
-- parameters: [21,22]

-- findVisibleOption
select "o"."id", "o"."field_id" as "field", "o"."value", "o"."position" from "custom_field_options" as "o" inner join "custom_fields" as "f" on "f"."id" = "o"."field_id" where "o"."id" = $1 and "f"."id" in (select "vf"."id" from "custom_fields" as "vf" where "vf"."organization_id" = $2 and ("vf"."all_projects" = $3 or not exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id") or exists (select "vfp"."project_id" from "custom_field_projects" as "vfp" where "vfp"."field_id" = "vf"."id" and "vfp"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $4 where "p"."organization_id" = $5 and "p"."id" in ($6, $7)))));
-- parameters: [21,1,1,3,1,10,11]

-- otherOptionWithValue
select "id" from "custom_field_options" where "field_id" = $1 and "value" = $2 and "id" != $3;
-- parameters: [9,"Critical",21]

-- fieldsForTaskWrite
select "f"."id", "f"."name", "f"."type", "f"."required", ("f"."all_projects" = $1 or exists (select "fp"."id" from "custom_field_projects" as "fp" where "fp"."field_id" = "f"."id" and "fp"."project_id" = $2)) as "applies" from "custom_fields" as "f" where "f"."organization_id" = $3 and ("f"."id" in ($4, $5) or "f"."required" = $6);
-- parameters: [1,10,1,9,12,1]
