import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/database.ts';
import type { Principal } from '../auth/principal.ts';
import { visibleProjectIds } from '../../policy/index.ts';
import type { LivePosition } from './position.ts';

export interface LiveEvent {
  position: LivePosition;
  kind: 'task' | 'comment' | 'project';
  project: string;
  key: string | null;
  action: string;
  version: number | null;
}

/**
 * On PostgreSQL, rows of transactions older than the oldest one still running are final: no
 * row can commit before them any more. Newer rows may be visible already, but a row with a
 * smaller (tx, id) can still commit, so a reader must not move past them yet. SQLite commits
 * one writer at a time in id order, so every visible row is final.
 */
const horizonOf = (dialect: Dialect) =>
  dialect === 'postgres'
    ? sql<number>`pg_snapshot_xmin(pg_current_snapshot())::text::bigint`
    : sql<number>`${Number.MAX_SAFE_INTEGER}`;

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
 * The changes after `after` in projects `principal` can see now, in order, at most `limit`.
 * `held` is true when rows exist beyond the last final one: read again shortly.
 */
export async function readLiveEvents(
  db: Db,
  dialect: Dialect,
  principal: Principal,
  after: LivePosition,
  limit: number,
): Promise<{ events: LiveEvent[]; held: boolean }> {
  const rows = await db
    .selectFrom('live_events as e')
    .innerJoin('projects as p', 'p.id', 'e.project_id')
    .select(['e.tx', 'e.id', 'e.kind', 'e.action', 'e.task_key', 'e.version', 'p.key as project_key'])
    .select(horizonOf(dialect).as('horizon'))
    .where((eb) => eb(eb.refTuple('e.tx', 'e.id'), '>', eb.tuple(after.tx, after.id)))
    .where('e.project_id', 'in', visibleProjectIds(db, principal))
    .orderBy('e.tx')
    .orderBy('e.id')
    .limit(limit)
    .execute();
  const final = rows.filter((row) => row.tx < Number(row.horizon));
  return {
    events: final.map((row) => ({
      position: { tx: Number(row.tx), id: row.id },
      kind: row.kind,
      project: row.project_key,
      key: row.task_key,
      action: row.action,
      version: row.version,
    })),
    held: final.length < rows.length,
  };
}
