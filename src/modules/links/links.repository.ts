import { sql } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import type { Principal } from '../auth/principal.ts';
import { visibleProjectIds } from '../../policy/index.ts';
import { shortestPath } from './link-graph.ts';

/**
 * The existing `blocks` path `to → ... → from`, if there is one: the loop that a new edge
 * `from blocks to` would close. One recursive query walks everything `to` transitively blocks
 * (UNION, not UNION ALL, so each edge is visited once however many paths lead to it, and the
 * walk stops at `from`); the shortest path is then picked in memory from those edges.
 * The graph is acyclic before the insert, so the walk always ends.
 */
export async function findBlockingPath(db: Executor, from: number, to: number): Promise<number[] | null> {
  const { rows } = await sql<{ node: number; parent: number | null }>`
    WITH RECURSIVE reach(node, parent) AS (
      SELECT CAST(${to} AS integer), CAST(NULL AS integer)
      UNION
      SELECT l.to_task_id, l.from_task_id
      FROM task_links l
      JOIN reach r ON l.from_task_id = r.node
      WHERE l.type = 'blocks' AND r.node <> ${from}
    )
    SELECT node, parent FROM reach
  `.execute(db);
  if (!rows.some((row) => row.node === from)) return null;
  return shortestPath(rows, to, from);
}

// Arbitrary constant naming "link creation" among advisory locks; the second key is the organization.
const LINK_LOCK_NAMESPACE = 0x4c4e4b53;

/**
 * Serializes link creation within one organization for the rest of the transaction, so two
 * requests that together close a loop (A blocks B, B blocks A) cannot both pass the cycle check
 * before either inserts. Links never cross organizations, so the organization bounds every
 * connected component. SQLite runs one write transaction at a time, so nothing to do there.
 */
export async function lockLinkGraph(db: Executor, dialect: Dialect, organizationId: number): Promise<void> {
  if (dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${LINK_LOCK_NAMESPACE}, ${organizationId})`.execute(db);
}

/**
 * PostgreSQL: holds both tasks (FOR KEY SHARE, the lock a foreign key takes) so a concurrent
 * delete waits for the link rather than making its insert fail. Returns whether both exist.
 */
export async function holdTasks(db: Executor, dialect: Dialect, ids: number[]): Promise<boolean> {
  let query = db.selectFrom('tasks').select('id').where('id', 'in', ids);
  if (dialect === 'postgres') query = query.forKeyShare();
  return (await query.execute()).length === ids.length;
}

/** Links of one task whose other end the caller can see, with that other task's key, title and status. */
export function selectVisibleLinks(db: Executor, principal: Principal, taskId: number) {
  return db
    .selectFrom('task_links as l')
    .innerJoin('tasks as o', (join) =>
      join.on((eb) =>
        eb('o.id', '=', eb.case().when('l.from_task_id', '=', taskId).then(eb.ref('l.to_task_id')).else(eb.ref('l.from_task_id')).end()),
      ),
    )
    .innerJoin('statuses as s', 's.id', 'o.status_id')
    .select(['l.id', 'l.from_task_id', 'l.to_task_id', 'l.type', 'l.created_by', 'l.created_at', 'o.key', 'o.title', 's.name as status'])
    .where((eb) => eb.or([eb('l.from_task_id', '=', taskId), eb('l.to_task_id', '=', taskId)]))
    .where('o.project_id', 'in', visibleProjectIds(db, principal));
}

export type VisibleLinkRow = Awaited<ReturnType<ReturnType<typeof selectVisibleLinks>['executeTakeFirstOrThrow']>>;
