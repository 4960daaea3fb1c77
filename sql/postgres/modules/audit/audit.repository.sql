-- modules/audit/audit.repository.ts, postgres. Written by scripts/write-sql-snapshots.ts; do not edit.

-- insertAuditRecord
insert into "audit_records" ("organization_id", "occurred_at", "action", "actor_id", "actor_label", "token_id", "session_id", "source", "target_type", "target_id", "target_label", "project_id", "before", "after", "address", "correlation_id") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16);
-- parameters: [1,"2026-11-21T09:00:00.000000Z","person.role_changed",3,"Ada",null,7,"app","person",4,"Bob <bob@example.test>",null,"{\"role\":\"member\"}","{\"role\":\"admin\"}","127.0.0.1","req-1"]

-- auditRecords
select "a".*, "p"."key" as "project_key" from "audit_records" as "a" left join "projects" as "p" on "p"."id" = "a"."project_id" where "a"."organization_id" = $1 order by "a"."id" desc limit $2;
-- parameters: [1,51]
select "a".*, "p"."key" as "project_key" from "audit_records" as "a" left join "projects" as "p" on "p"."id" = "a"."project_id" where "a"."organization_id" = $1 and ("a"."project_id" is null or "a"."project_id" in (select "p"."id" from "projects" as "p" inner join "project_memberships" as "pm" on "pm"."project_id" = "p"."id" and "pm"."user_id" = $2 where "p"."organization_id" = $3 and "p"."id" in ($4, $5))) and "a"."actor_id" = $6 and "a"."action" = $7 and "a"."occurred_at" >= $8 and "a"."occurred_at" < $9 and "a"."id" < $10 order by "a"."id" desc limit $11;
-- parameters: [1,3,1,10,11,3,"token.created","2026-11-21T09:00:00.000000Z","2026-11-22T09:00:00.000000Z",100,51]

-- deleteAuditRecordsBefore
delete from "audit_records" where "id" in (select "id" from "audit_records" where "occurred_at" < $1 order by "id" limit $2);
-- parameters: ["2026-11-21T09:00:00.000000Z",2000]
