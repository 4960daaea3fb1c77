import { sql } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import { paginate } from '../../db/paginate.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import type { Edge } from './link-graph.ts';
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
  if (dialect === 'postgres')
    await sql`SELECT pg_advisory_xact_lock(${LINK_LOCK_NAMESPACE}, ${organizationId})`.execute(db);
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
function selectVisibleLinks(db: Executor, principal: Principal, taskId: number) {
  return db
    .selectFrom('task_links as l')
    .innerJoin('tasks as o', (join) =>
      join.on((eb) =>
        eb(
          'o.id',
          '=',
          eb
            .case()
            .when('l.from_task_id', '=', taskId)
            .then(eb.ref('l.to_task_id'))
            .else(eb.ref('l.from_task_id'))
            .end(),
        ),
      ),
    )
    .innerJoin('statuses as s', 's.id', 'o.status_id')
    .select([
      'l.id',
      'l.from_task_id',
      'l.to_task_id',
      'l.type',
      'l.created_by',
      'l.created_at',
      'o.key',
      'o.title',
      's.name as status',
    ])
    .where((eb) => eb.or([eb('l.from_task_id', '=', taskId), eb('l.to_task_id', '=', taskId)]))
    .where('o.project_id', 'in', visibleProjectIds(db, principal));
}

/** One page of the task's links whose other end the caller can see. */
export function linksPage(db: Executor, principal: Principal, taskId: number, page: PageRequest) {
  return paginate(selectVisibleLinks(db, principal, taskId), page, {
    idColumn: 'l.id',
    orderable: { created_at: 'l.created_at' },
    defaultOrdering: 'created_at',
  });
}

export type VisibleLinkRow = Awaited<ReturnType<ReturnType<typeof selectVisibleLinks>['executeTakeFirstOrThrow']>>;

/** One link of the task by id, if its other end is visible to the caller. */
export function findVisibleLink(
  db: Executor,
  principal: Principal,
  taskId: number,
  linkId: number,
): Promise<VisibleLinkRow | undefined> {
  return selectVisibleLinks(db, principal, taskId).where('l.id', '=', linkId).executeTakeFirst();
}

/**
 * The stored link of `edge`'s type between its two tasks: in the same direction, or for
 * `duplicates` in either (the reverse row is the same relationship).
 */
export function findEquivalentLink(db: Executor, edge: Edge) {
  const reverseCounts = edge.type === 'duplicates';
  return db
    .selectFrom('task_links')
    .select(['id', 'from_task_id', 'to_task_id', 'type'])
    .where('type', '=', edge.type)
    .where((eb) => {
      const same = eb.and([eb('from_task_id', '=', edge.from_task_id), eb('to_task_id', '=', edge.to_task_id)]);
      return reverseCounts
        ? eb.or([same, eb.and([eb('from_task_id', '=', edge.to_task_id), eb('to_task_id', '=', edge.from_task_id)])])
        : same;
    })
    .executeTakeFirst();
}

/** Keys of tasks by id, read in chunks: a loop can be longer than the bound-parameter limit. */
/** The two ends of a link as its events name them: key, title and project. */
export function linkEnds(db: Executor, ids: [number, number]) {
  return db
    .selectFrom('tasks as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .select(['t.id', 't.key', 't.title', 'p.id as project_id', 'p.key as project_key'])
    .where('t.id', 'in', ids)
    .execute();
}

export async function taskKeys(db: Executor, ids: number[]): Promise<Map<number, string>> {
  const keys = new Map<number, string>();
  for (let start = 0; start < ids.length; start += 1000) {
    const rows = await db
      .selectFrom('tasks')
      .select(['id', 'key'])
      .where('id', 'in', ids.slice(start, start + 1000))
      .execute();
    for (const row of rows) keys.set(row.id, row.key);
  }
  return keys;
}

export async function insertLink(
  db: Executor,
  values: Edge & { created_by: number; created_at: string },
): Promise<number> {
  const row = await db.insertInto('task_links').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Whether this call deleted the link (false: it was gone already). */
export async function deleteLink(db: Executor, id: number): Promise<boolean> {
  const deleted = await db.deleteFrom('task_links').where('id', '=', id).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}
