import { isoFromMs } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import { decodeCursor, encodeCursor } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { authorize, can, WORKSPACE } from '../../policy/index.ts';
import type { AuditAction, AuditTargetType } from './actions.ts';
import { type AuditRecordRow, auditRecords } from './audit.repository.ts';

/**
 * Reading the organization audit log (docs/operating/audit.md): owners read every record of
 * their organization; admins the records about no project and those about a project they see.
 * Nobody else reads it, and nothing in the product changes or deletes a record.
 */

export interface AuditQuery {
  actor?: number;
  action?: string;
  from?: string;
  to?: string;
}

/** A record as the console and the exports show it. */
export function presentAuditRecord(row: AuditRecordRow) {
  return {
    id: row.id,
    occurred_at: row.occurred_at,
    // Written only from AUDIT_ACTIONS and AUDIT_TARGET_TYPES (record-audit.ts).
    action: row.action as AuditAction,
    actor: { id: row.actor_id, name: row.actor_label },
    via: { source: row.source, token_id: row.token_id, session_id: row.session_id },
    target:
      row.target_type === null
        ? null
        : { type: row.target_type as AuditTargetType, id: row.target_id, name: row.target_label ?? '' },
    project: row.project_id === null ? null : { id: row.project_id, key: row.project_key },
    before: row.before === null ? null : (JSON.parse(row.before) as Record<string, unknown>),
    after: row.after === null ? null : (JSON.parse(row.after) as Record<string, unknown>),
    address: row.address,
    correlation_id: row.correlation_id,
  };
}

export type AuditRecordJson = ReturnType<typeof presentAuditRecord>;

function filterFor(principal: Principal, query: AuditQuery) {
  authorize(principal, 'people.manage', WORKSPACE);
  return {
    organizationId: principal.organizationId,
    seenBy: can(principal, 'people.manage-owners', WORKSPACE) ? null : principal,
    actorId: query.actor,
    action: query.action,
    // Stored times are text with microseconds: a bound compares only in that same form.
    from: query.from === undefined ? undefined : isoFromMs(Date.parse(query.from)),
    to: query.to === undefined ? undefined : isoFromMs(Date.parse(query.to)),
  };
}

/**
 * One page of the log, newest first. The cursor walks towards older records: an empty one
 * starts at the newest, `next_cursor` continues after the page's oldest record.
 */
export async function listAudit(
  ctx: AppContext,
  principal: Principal,
  query: AuditQuery & { cursor?: string; limit?: number },
) {
  const limit = query.limit ?? 50;
  const after = query.cursor ? decodeCursor(query.cursor) : 0;
  const rows = await auditRecords(
    ctx.db,
    { ...filterFor(principal, query), beforeId: after > 0 ? after : undefined },
    limit + 1,
  );
  const page = rows.slice(0, limit);
  return {
    data: page.map(presentAuditRecord),
    pagination: {
      limit,
      next_cursor: encodeCursor(page.at(-1)?.id ?? after),
      has_more: rows.length > limit,
    },
  };
}

const EXPORT_BATCH = 500;

/** Every matching record, newest first, read in batches as the export is written. */
async function* exportedRecords(ctx: AppContext, filter: ReturnType<typeof filterFor>) {
  let beforeId: number | undefined;
  for (;;) {
    const rows = await auditRecords(ctx.db, { ...filter, beforeId }, EXPORT_BATCH);
    for (const row of rows) yield presentAuditRecord(row);
    if (rows.length < EXPORT_BATCH) return;
    beforeId = rows.at(-1)!.id;
  }
}

export const CSV_COLUMNS = [
  'id',
  'occurred_at',
  'action',
  'actor_id',
  'actor_name',
  'source',
  'token_id',
  'session_id',
  'target_type',
  'target_id',
  'target_name',
  'project_id',
  'project_key',
  'before',
  'after',
  'address',
  'correlation_id',
] as const;

/**
 * One CSV field (RFC 4180). Text a spreadsheet would run as a formula (a name starting with
 * `=`, `+`, `-`, `@`, tab or CR) is prefixed with `'`, so opening an export runs nothing.
 */
function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(record: AuditRecordJson): string {
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  const fields = [
    record.id,
    record.occurred_at,
    record.action,
    record.actor.id,
    record.actor.name,
    record.via.source,
    record.via.token_id,
    record.via.session_id,
    record.target?.type ?? null,
    record.target?.id ?? null,
    record.target?.name ?? null,
    record.project?.id ?? null,
    record.project?.key ?? null,
    json(record.before),
    json(record.after),
    record.address,
    record.correlation_id,
  ];
  return `${fields.map(csvField).join(',')}\r\n`;
}

/**
 * The export as text chunks: CSV with a header line, or one JSON object per line. Who may read
 * is decided at once (a refusal is an error answer), the records are read as the chunks are.
 */
export function exportLines(
  ctx: AppContext,
  principal: Principal,
  query: AuditQuery,
  format: 'csv' | 'jsonl',
): AsyncGenerator<string> {
  return linesOf(exportedRecords(ctx, filterFor(principal, query)), format);
}

async function* linesOf(records: AsyncGenerator<AuditRecordJson>, format: 'csv' | 'jsonl'): AsyncGenerator<string> {
  if (format === 'csv') {
    yield `${CSV_COLUMNS.join(',')}\r\n`;
    for await (const record of records) yield csvLine(record);
  } else {
    for await (const record of records) yield `${JSON.stringify(record)}\n`;
  }
}
