-- events/outbox.repository.ts, sqlite. Written by scripts/write-sql-snapshots.ts; do not edit.

-- outboxInsert
insert into "event_outbox" ("event_id", "type", "organization_id", "project_id", "actor_id", "correlation_id", "envelope", "occurred_at", "fanned_out_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?);
-- parameters: ["evt_1","task.updated",1,10,3,"req-1","{}","2026-11-21T09:00:00.000Z",null,"evt_2","task.assigned",1,10,3,"req-1","{}","2026-11-21T09:00:00.000Z",null]

-- insertOutboxEvent
insert into "event_outbox" ("event_id", "type", "organization_id", "project_id", "actor_id", "correlation_id", "envelope", "occurred_at", "fanned_out_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?);
-- parameters: ["evt_1","task.created",1,10,3,"req-1","{}","2026-11-21T09:00:00.000Z",null]
