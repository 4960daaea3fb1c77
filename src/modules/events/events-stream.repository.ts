import { horizonOf } from '../../db/commit-order.ts';
import type { Db, Dialect } from '../../db/database.ts';

/** A place in the outbox's commit order: (tx, id), see migration 0033. */
export interface EventPosition {
  tx: number;
  id: number;
}

export interface StreamedEvent {
  position: EventPosition;
  eventId: string;
  type: string;
  organizationId: number;
  projectId: number | null;
  relatedProjectId: number | null;
  recipientId: number | null;
  occurredAt: string;
  envelope: string;
}

/** Where an event of this organization is in the stream, or undefined when it is not (or no longer) in the outbox. */
export async function positionOfEvent(
  db: Db,
  organizationId: number,
  eventId: string,
): Promise<(EventPosition & { occurredAt: string }) | undefined> {
  const row = await db
    .selectFrom('event_outbox')
    .select(['tx', 'id', 'occurred_at'])
    .where('event_id', '=', eventId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row && { tx: Number(row.tx), id: row.id, occurredAt: row.occurred_at };
}

/**
 * Where a stream that does not resume starts: after the last final event of the organization
 * (its id, the stream's first SSE id), or at the start when it has none.
 */
export async function startOfStream(
  db: Db,
  dialect: Dialect,
  organizationId: number,
): Promise<{ position: EventPosition; eventId: string | null }> {
  const row = await db
    .selectFrom('event_outbox')
    .select(['tx', 'id', 'event_id'])
    .where('organization_id', '=', organizationId)
    .where('tx', '<', horizonOf(dialect))
    .orderBy('tx', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row
    ? { position: { tx: Number(row.tx), id: row.id }, eventId: row.event_id }
    : { position: { tx: 0, id: 0 }, eventId: null };
}

/** The largest outbox id (0 when empty): a new one means someone committed events. */
export async function largestEventId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('event_outbox')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return row?.id ?? 0;
}

/**
 * The final events after `after`, of every organization, in commit order, at most `limit`: one
 * read shared by a process's streams. `held` is true when rows wait behind a transaction still
 * running (PostgreSQL): read again shortly.
 */
export async function readEventsAfter(
  db: Db,
  dialect: Dialect,
  after: EventPosition,
  limit: number,
): Promise<{ events: StreamedEvent[]; held: boolean }> {
  const rows = await db
    .selectFrom('event_outbox as e')
    .select([
      'e.tx',
      'e.id',
      'e.event_id',
      'e.type',
      'e.organization_id',
      'e.project_id',
      'e.related_project_id',
      'e.recipient_id',
      'e.occurred_at',
      'e.envelope',
    ])
    .select(horizonOf(dialect).as('horizon'))
    .where((eb) => eb(eb.refTuple('e.tx', 'e.id'), '>', eb.tuple(after.tx, after.id)))
    .orderBy('e.tx')
    .orderBy('e.id')
    .limit(limit)
    .execute();
  const final = rows.filter((row) => Number(row.tx) < Number(row.horizon));
  return {
    events: final.map((row) => ({
      position: { tx: Number(row.tx), id: row.id },
      eventId: row.event_id,
      type: row.type,
      organizationId: row.organization_id,
      projectId: row.project_id,
      relatedProjectId: row.related_project_id,
      recipientId: row.recipient_id,
      occurredAt: row.occurred_at,
      envelope: row.envelope,
    })),
    held: final.length < rows.length,
  };
}
