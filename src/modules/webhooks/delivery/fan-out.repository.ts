import type { Dialect, Executor } from '../../../db/database.ts';

/** Fan-out's SQL: taking unfanned outbox events, the endpoints that may receive them, who sees which project. */

/**
 * Marks up to `limit` outbox events fanned out and returns them: one UPDATE ... RETURNING, so
 * the rows are this transaction's (PostgreSQL: SKIP LOCKED lets other workers take other rows;
 * SQLite: the write lock is taken first, so a second process waits instead of reading stale rows).
 */
export function takeUnfannedEvents(db: Executor, dialect: Dialect, now: string, limit: number) {
  return takeUnfannedStatement(db, dialect, now, limit).execute();
}

/** The statement of takeUnfannedEvents, for the plan test to EXPLAIN. */
export function takeUnfannedStatement(db: Executor, dialect: Dialect, now: string, limit: number) {
  let pending = db
    .selectFrom('event_outbox')
    .select('id')
    .where('fanned_out_at', 'is', null)
    .orderBy('id')
    .limit(limit);
  if (dialect === 'postgres') pending = pending.forUpdate().skipLocked();
  return db
    .updateTable('event_outbox')
    .set({ fanned_out_at: now })
    .where('id', 'in', pending)
    .where('fanned_out_at', 'is', null)
    .returning([
      'id',
      'event_id',
      'type',
      'organization_id',
      'project_id',
      'related_project_id',
      'recipient_id',
      'task_change_id',
    ]);
}

/**
 * Enabled endpoints of these organizations, by id; `events` is the JSON list of subscribed
 * types, `filter` the query task events must match (null: none).
 */
export function enabledEndpointsOf(db: Executor, organizationIds: number[]) {
  return db
    .selectFrom('webhook_endpoints')
    .select(['id', 'organization_id', 'governed_by', 'project_id', 'events', 'filter'])
    .where('organization_id', 'in', organizationIds)
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
}

/** Which of these accounts are members of which of these projects. */
export function membershipsAmong(db: Executor, userIds: number[], projectIds: number[]) {
  return db
    .selectFrom('project_memberships')
    .select(['user_id', 'project_id'])
    .where('user_id', 'in', userIds)
    .where('project_id', 'in', projectIds)
    .execute();
}

/** The projects (id and key) each of these accounts is a member of in its own organization. */
export function projectsOfAccounts(db: Executor, userIds: number[]) {
  return db
    .selectFrom('project_memberships as pm')
    .innerJoin('users as u', 'u.id', 'pm.user_id')
    .innerJoin('projects as p', (join) =>
      join.onRef('p.id', '=', 'pm.project_id').onRef('p.organization_id', '=', 'u.organization_id'),
    )
    .select(['pm.user_id', 'p.id', 'p.key'])
    .where('pm.user_id', 'in', userIds.length ? userIds : [-1])
    .execute();
}

/** The envelopes of these outbox events (for the task an event names). */
export function envelopesOf(db: Executor, outboxIds: number[]) {
  return db
    .selectFrom('event_outbox')
    .select(['id', 'envelope'])
    .where('id', 'in', outboxIds.length ? outboxIds : [-1])
    .execute();
}
