import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import type { Executor } from '../../db/database.ts';
import type { Principal } from '../../identity/principal.ts';
import type { AuditAction, AuditTargetType } from './actions.ts';
import { insertAuditRecord } from './audit.repository.ts';

/** Where an audited change came from: as in events, plus 'operator' for the command line. */
export type AuditSource = 'app' | 'api' | 'agent' | 'scheduler' | 'operator';

/** Who acted, and through which token or session. */
export interface AuditActor {
  /** The person or service account; null when nobody is signed in (a failed sign-in) or the system acts. */
  userId: number | null;
  /** Their name now (kept in the record), or what acted: "system", the e-mail a failed sign-in tried. */
  label: string;
  tokenId: number | null;
  sessionId: number | null;
  source: AuditSource;
}

/** The caller of a request as an audit actor: its account, and its token or its session. */
export function auditActorOf(principal: Principal): AuditActor {
  return {
    userId: principal.userId,
    label: principal.userName,
    tokenId: principal.tokenId > 0 ? principal.tokenId : null,
    sessionId: principal.sessionId ?? null,
    source: principal.source ?? (principal.sessionId ? 'app' : 'api'),
  };
}

/** The worker acting on its own (a webhook endpoint disabled after its failures). */
export const SYSTEM_ACTOR: AuditActor = {
  userId: null,
  label: 'system',
  tokenId: null,
  sessionId: null,
  source: 'scheduler',
};

/** The operator at the command line (tasktracker token create, ...). */
export const OPERATOR_ACTOR: AuditActor = {
  userId: null,
  label: 'operator',
  tokenId: null,
  sessionId: null,
  source: 'operator',
};

/** Where a record is written, and when: a unit of work's `Tx` (src/db/unit-of-work.ts) is one. */
export interface AuditWriter {
  db: Executor;
  clock: Clock;
}

export interface AuditEntry {
  organizationId: number;
  /** A request's principal, or an actor built by hand (sign-in, the worker). */
  actor: Principal | AuditActor;
  action: AuditAction;
  /** What the change is about; `label` is its name now, kept readable after it is deleted. */
  target?: { type: AuditTargetType; id: number | null; label: string };
  /** The project the change concerns: an admin sees the record only while they see that project. */
  projectId?: number | null;
  /** The changed fields before and after (see `changedFields`); null for a creation or a deletion's after. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /**
   * The request's id and client address, when `actor` is not a request's principal (which
   * carries both): a sign-in passes its request's. The worker passes the correlation id of the
   * events it acts on; without one a new id is made.
   */
  correlationId?: string;
  address?: string | null;
}

/**
 * Records one organization-level change in the audit log (docs/operating/audit.md). Call it
 * inside the unit of work of the change itself, with the transaction the change is written in,
 * so the record exists if and only if the change committed. The time is the context's clock;
 * the correlation id and the address are those of the principal's request (`Principal.request`)
 * or given in the entry.
 *
 * ```ts
 * await inTransaction(ctx, async (tx) => {
 *   await changeTheRole(tx, ...);
 *   await recordAudit(tx, {
 *     organizationId: principal.organizationId,
 *     actor: principal,
 *     action: 'person.role_changed',
 *     target: { type: 'person', id: person.id, label: person.name },
 *     ...changedFields({ role: 'member' }, { role: 'admin' }),
 *   });
 * });
 * ```
 */
export async function recordAudit(tx: AuditWriter, entry: AuditEntry): Promise<void> {
  const request = 'organizationId' in entry.actor ? entry.actor.request : undefined;
  const actor = 'organizationId' in entry.actor ? auditActorOf(entry.actor) : entry.actor;
  await insertAuditRecord(tx.db, {
    organization_id: entry.organizationId,
    occurred_at: tx.clock.nowIso(),
    action: entry.action,
    actor_id: actor.userId,
    actor_label: actor.label,
    token_id: actor.tokenId,
    session_id: actor.sessionId,
    source: actor.source,
    target_type: entry.target?.type ?? null,
    target_id: entry.target?.id ?? null,
    target_label: entry.target?.label ?? null,
    project_id: entry.projectId ?? null,
    before: entry.before ? JSON.stringify(entry.before) : null,
    after: entry.after ? JSON.stringify(entry.after) : null,
    address: entry.address ?? request?.address ?? null,
    correlation_id: entry.correlationId ?? request?.id ?? `audit_${randomUUID().replaceAll('-', '')}`,
  });
}

/**
 * The fields whose values differ, as `{ before, after }` for an AuditEntry; both null when
 * nothing changed (callers then record nothing, see `hasChanges`).
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown> | null; after: Record<string, unknown> | null } {
  const keys = Object.keys(after).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  if (keys.length === 0) return { before: null, after: null };
  return {
    before: Object.fromEntries(keys.map((key) => [key, before[key] ?? null])),
    after: Object.fromEntries(keys.map((key) => [key, after[key] ?? null])),
  };
}

/** Whether `changedFields` found any change. */
export function hasChanges(changes: { after: Record<string, unknown> | null }): boolean {
  return changes.after !== null;
}
