import { horizonOf } from '../../db/commit-order.ts';
import type { Db, Dialect } from '../../db/database.ts';
import type { LivePosition } from './position.ts';

export interface LiveEvent {
  position: LivePosition;
  projectId: number;
  kind: 'task' | 'comment' | 'project' | 'notification';
  /** Null for a notification about no task. */
  project: string | null;
  key: string | null;
  action: string;
  version: number | null;
  /** A notification's recipient: nobody else's streams get the row. */
  recipientId: number | null;
}

/** The largest live_events id (0 when empty): a new one means someone committed rows. */
export async function largestLiveEventId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('live_events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return row?.id ?? 0;
}

/** Where a stream that does not resume starts: after the last final row. */
export async function currentPosition(db: Db, dialect: Dialect): Promise<LivePosition> {
  const row = await db
    .selectFrom('live_events')
    .select(['tx', 'id'])
    .where('tx', '<', horizonOf(dialect))
    .orderBy('tx', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ?? { tx: 0, id: 0 };
}

/**
 * Whether a stream could have sent this position: a row still in the table, or, while the
 * table is empty, the start (`0-0`, the `ready` id of a stream opened then).
 */
export async function isKnownPosition(db: Db, position: LivePosition): Promise<boolean> {
  const row = await db
    .selectFrom('live_events')
    .select('id')
    .$if(position.tx !== 0 || position.id !== 0, (qb) => qb.where('tx', '=', position.tx).where('id', '=', position.id))
    .limit(1)
    .executeTakeFirst();
  return position.tx === 0 && position.id === 0 ? row === undefined : row !== undefined;
}

/**
 * The changes after `after`, of every project, in order, at most `limit`: one read shared by a
 * process's streams, each of which keeps the changes of projects its person sees.
 * `held` is true when rows exist beyond the last final one: read again shortly.
 */
export async function readLiveEvents(
  db: Db,
  dialect: Dialect,
  after: LivePosition,
  limit: number,
): Promise<{ events: LiveEvent[]; held: boolean }> {
  const rows = await db
    .selectFrom('live_events as e')
    .leftJoin('projects as p', 'p.id', 'e.project_id')
    .select([
      'e.tx',
      'e.id',
      'e.project_id',
      'e.kind',
      'e.action',
      'e.task_key',
      'e.version',
      'e.recipient_id',
      'p.key as project_key',
    ])
    .select(horizonOf(dialect).as('horizon'))
    .where((eb) => eb(eb.refTuple('e.tx', 'e.id'), '>', eb.tuple(after.tx, after.id)))
    .orderBy('e.tx')
    .orderBy('e.id')
    .limit(limit)
    .execute();
  const final = rows.filter((row) => row.tx < Number(row.horizon));
  return {
    events: final.map((row) => ({
      position: { tx: Number(row.tx), id: row.id },
      projectId: row.project_id,
      kind: row.kind,
      project: row.project_key,
      key: row.task_key,
      action: row.action,
      version: row.version,
      recipientId: row.recipient_id,
    })),
    held: final.length < rows.length,
  };
}
