-- modules/attachments/attachment.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- attachmentsOfTask
select "a"."id", "t"."key" as "task_key", "a"."storage_name", "a"."filename", "a"."content_type", "a"."size", "a"."sha256", "a"."uploaded_by", "u"."name" as "uploader_name", "a"."created_at" from "attachments" as "a" inner join "tasks" as "t" on "t"."id" = "a"."task_id" left join "users" as "u" on "u"."id" = "a"."uploaded_by" where "a"."task_id" = ? order by "a"."created_at" asc, "a"."id" asc limit ? offset ?;
-- parameters: [42,50,0]
select count(*) as "count" from "attachments" as "a" inner join "tasks" as "t" on "t"."id" = "a"."task_id" left join "users" as "u" on "u"."id" = "a"."uploaded_by" where "a"."task_id" = ?;
-- parameters: [42]
-- (stops here without a row: no result)

-- findAttachment
select "a"."id", "t"."key" as "task_key", "a"."storage_name", "a"."filename", "a"."content_type", "a"."size", "a"."sha256", "a"."uploaded_by", "u"."name" as "uploader_name", "a"."created_at" from "attachments" as "a" inner join "tasks" as "t" on "t"."id" = "a"."task_id" left join "users" as "u" on "u"."id" = "a"."uploaded_by" where "a"."id" = ?;
-- parameters: [7]

-- findVisibleAttachment
select "a"."id", "t"."key" as "task_key", "a"."storage_name", "a"."filename", "a"."content_type", "a"."size", "a"."sha256", "a"."uploaded_by", "u"."name" as "uploader_name", "a"."created_at", "p"."id" as "project_id", "pm"."role" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = ? inner join "tasks" as "t" on "t"."project_id" = "p"."id" inner join "attachments" as "a" on "a"."task_id" = "t"."id" left join "users" as "u" on "u"."id" = "a"."uploaded_by" where "p"."organization_id" = ? and "p"."id" in (?, ?) and "a"."id" = ?;
-- parameters: [3,1,10,11,7]

-- insertAttachment
insert into "attachments" ("task_id", "storage_name", "filename", "content_type", "size", "sha256", "uploaded_by", "created_at") values (?, ?, ?, ?, ?, ?, ?, ?) returning "id";
-- parameters: [42,"0123456789abcdef0123456789abcdef","notes.txt","text/plain",11,"b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9",3,"2026-11-21T09:00:00.000Z"]
-- (stops here without a row: no result)

-- deleteAttachment
delete from "attachments" where "id" = ?;
-- parameters: [7]

-- storageNamesOf
select "a"."storage_name" from "attachments" as "a" where "a"."task_id" = ?;
-- parameters: [42]
select "a"."storage_name" from "attachments" as "a" where "a"."task_id" in (select "id" from "tasks" where "project_id" = ?);
-- parameters: [10]

-- storageNamesInUse
select "storage_name" from "attachments" where "storage_name" in (?, ?);
-- parameters: ["0123456789abcdef0123456789abcdef","fedcba9876543210fedcba9876543210"]
