import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { AuditRecordsTable } from '../../db/schema.ts';
import type { Principal } from '../../identity/principal.ts';
import { visibleProjectIds } from '../../policy/visibility.repository.ts';

/** Writes one audit record. The only write the product makes to audit_records, besides retention. */
export async function insertAuditRecord(db: Executor, row: Insertable<AuditRecordsTable>): Promise<void> {
  await db.insertInto('audit_records').values(row).execute();
}

export interface AuditFilter {
  organizationId: number;
  /** Only records of no project or of a project this caller sees; null: every record (an owner). */
  seenBy: Principal | null;
  actorId?: number;
  action?: string;
  /** occurred_at >= from */
  from?: string;
  /** occurred_at < to */
  to?: string;
  /** Newest first: records with a smaller id than this one. */
  beforeId?: number;
}

/** Up to `limit` records matching `filter`, newest first, with their project's key while it exists. */
export function auditRecords(db: Executor, filter: AuditFilter, limit: number) {
  let query = db
    .selectFrom('audit_records as a')
    .leftJoin('projects as p', 'p.id', 'a.project_id')
    .selectAll('a')
    .select('p.key as project_key')
    .where('a.organization_id', '=', filter.organizationId);
  const viewer = filter.seenBy;
  if (viewer)
    query = query.where((eb) =>
      eb.or([eb('a.project_id', 'is', null), eb('a.project_id', 'in', visibleProjectIds(db, viewer))]),
    );
  if (filter.actorId !== undefined) query = query.where('a.actor_id', '=', filter.actorId);
  if (filter.action !== undefined) query = query.where('a.action', '=', filter.action);
  if (filter.from !== undefined) query = query.where('a.occurred_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('a.occurred_at', '<', filter.to);
  if (filter.beforeId !== undefined) query = query.where('a.id', '<', filter.beforeId);
  return query.orderBy('a.id', 'desc').limit(limit).execute();
}

export type AuditRecordRow = Awaited<ReturnType<typeof auditRecords>>[number];

/** Deletes up to `limit` records from before `cutoff` (the retention sweep); returns how many. */
export async function deleteAuditRecordsBefore(db: Executor, cutoff: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('audit_records')
    .where('id', 'in', (eb) =>
      eb.selectFrom('audit_records').select('id').where('occurred_at', '<', cutoff).orderBy('id').limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
