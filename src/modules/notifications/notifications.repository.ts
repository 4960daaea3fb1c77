import type { Insertable } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import { paginate } from '../../db/paginate.ts';
import type { NotificationsTable } from '../../db/schema.ts';
import type { PageRequest } from '../../http/pagination.ts';

/** The inbox's SQL: events to notify about, who may hear of them, the notifications and preferences. */

/**
 * Marks the outbox events of up to `limit` events' actions (whole correlations, so one action's
 * events are judged together) notified, and returns them in order.
 */
export function takeUnnotifiedEvents(db: Executor, dialect: Dialect, now: string, limit: number) {
  let pending = db
    .selectFrom('event_outbox')
    .select('correlation_id')
    .where('notified_at', 'is', null)
    .orderBy('id')
    .limit(limit);
  if (dialect === 'postgres') pending = pending.forUpdate().skipLocked();
  return db
    .updateTable('event_outbox')
    .set({ notified_at: now })
    .where('correlation_id', 'in', pending)
    .where('notified_at', 'is', null)
    .returning(['id', 'type', 'organization_id', 'actor_id', 'correlation_id', 'envelope'])
    .execute();
}

/** Tasks by key within their organizations, with who follows them by default. */
export function tasksByKeys(db: Executor, organizationIds: number[], keys: string[]) {
  return db
    .selectFrom('tasks as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .select(['t.id', 't.key', 't.title', 't.project_id', 't.assignee_id', 't.created_by', 'p.organization_id'])
    .where('p.organization_id', 'in', organizationIds)
    .where('t.key', 'in', keys)
    .execute();
}

export function followersOfTasks(db: Executor, taskIds: number[]) {
  return db.selectFrom('task_followers').select(['task_id', 'user_id']).where('task_id', 'in', taskIds).execute();
}

/** Who unfollowed these tasks: not followers even as assignee or creator. */
export function unfollowersOfTasks(db: Executor, taskIds: number[]) {
  return db.selectFrom('task_unfollows').select(['task_id', 'user_id']).where('task_id', 'in', taskIds).execute();
}

export function accountsByHandles(db: Executor, organizationId: number, handles: string[]) {
  return db
    .selectFrom('users')
    .select(['id', 'handle'])
    .where('organization_id', '=', organizationId)
    .where('handle', 'in', handles)
    .execute();
}

/** Which of these accounts are active members of which of these projects: who may hear of their tasks. */
export function activeMembersAmong(db: Executor, userIds: number[], projectIds: number[]) {
  return db
    .selectFrom('project_memberships as pm')
    .innerJoin('users as u', 'u.id', 'pm.user_id')
    .select(['pm.user_id', 'pm.project_id', 'u.email'])
    .where('pm.user_id', 'in', userIds)
    .where('pm.project_id', 'in', projectIds)
    .where('u.active', '=', 1)
    .execute();
}

/** Which of these accounts are active in which of these organizations: who may hear of what concerns no task. */
export function activeAccountsAmong(db: Executor, userIds: number[], organizationIds: number[]) {
  return db
    .selectFrom('users')
    .select(['id', 'organization_id', 'email'])
    .where('id', 'in', userIds)
    .where('organization_id', 'in', organizationIds)
    .where('active', '=', 1)
    .execute();
}

/** Custom field definitions by id: what a notification calls a changed field. */
export function customFieldsByIds(db: Executor, ids: number[]) {
  return db.selectFrom('custom_fields').select(['id', 'name', 'type']).where('id', 'in', ids).execute();
}

/** The choices these people made (reasons they did not choose for are at their defaults). */
export function preferencesOf(db: Executor, userIds: number[]) {
  return db
    .selectFrom('notification_preferences')
    .select(['user_id', 'reason', 'in_app', 'email'])
    .where('user_id', 'in', userIds)
    .execute();
}

/** When the e-mails already waiting for these people are due, by person and reason: new ones join them. */
export function waitingEmails(db: Executor, userIds: number[]) {
  return db
    .selectFrom('notifications')
    .select(['user_id', 'reason'])
    .select((eb) => eb.fn.min('email_due_at').as('due_at'))
    .where('user_id', 'in', userIds)
    .where('email_due_at', 'is not', null)
    .where('email_attempts', '=', 0)
    .groupBy(['user_id', 'reason'])
    .execute();
}

export type NewNotification = Omit<Insertable<NotificationsTable>, 'id'>;

/** Inserts the rows; their ids, in the order of the rows (one statement numbers them in order). */
export async function insertNotifications(db: Executor, rows: NewNotification[]): Promise<number[]> {
  const inserted = await db.insertInto('notifications').values(rows).returning('id').execute();
  return inserted.map((row) => row.id).sort((a, b) => a - b);
}

/** What a reader's list is filtered by. */
export interface InboxFilter {
  userId: number;
  /** The token's project restriction; null when it has none. */
  projects: number[] | null;
  unread: boolean;
  reasons: string[] | null;
}

/**
 * The reader's in-app notifications: about no task, or about a task of a project they are
 * still a member of (and, for a restricted token, one of its projects).
 */
function inbox(db: Executor, filter: InboxFilter) {
  return db
    .selectFrom('notifications as n')
    .leftJoin('users as a', 'a.id', 'n.actor_id')
    .leftJoin('tasks as t', 't.id', 'n.task_id')
    .select([
      'n.id',
      'n.reason',
      'n.created_at',
      'n.read_at',
      'n.actor_id',
      'a.name as actor_name',
      't.key as task_key',
      't.title as task_title',
      'n.comment_id',
      'n.subject',
    ])
    .where('n.user_id', '=', filter.userId)
    .where('n.in_app', '=', 1)
    .where((eb) =>
      eb.or([
        eb('n.project_id', 'is', null),
        eb(
          'n.project_id',
          'in',
          eb
            .selectFrom('project_memberships as pm')
            .select('pm.project_id')
            .where('pm.user_id', '=', filter.userId)
            .$if(filter.projects !== null, (qb) =>
              qb.where('pm.project_id', 'in', filter.projects!.length ? filter.projects! : [-1]),
            ),
        ),
      ]),
    )
    .$if(filter.unread, (qb) => qb.where('n.read_at', 'is', null))
    .$if(filter.reasons !== null, (qb) => qb.where('n.reason', 'in', filter.reasons!));
}

/** One page of the reader's in-app notifications, newest first unless the page asks otherwise. */
export function inboxPage(db: Executor, filter: InboxFilter, page: PageRequest) {
  return paginate(inbox(db, filter), page, {
    idColumn: 'n.id',
    orderable: { created_at: 'n.created_at' },
    defaultOrdering: '-created_at',
  });
}

/** Marks read those of `ids` (or all, when null) that the reader's inbox holds and are unread. */
export async function markRead(db: Executor, filter: InboxFilter, ids: number[] | null, at: string): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: at })
    .where(
      'id',
      'in',
      inbox(db, { ...filter, unread: true })
        .clearSelect()
        .select('n.id')
        .$if(ids !== null, (qb) => qb.where('n.id', 'in', ids!.length ? ids! : [-1])),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function upsertPreferences(
  db: Executor,
  rows: Array<{ user_id: number; reason: string; in_app: number; email: number }>,
): Promise<void> {
  await db
    .insertInto('notification_preferences')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['user_id', 'reason']).doUpdateSet((eb) => ({
        in_app: eb.ref('excluded.in_app'),
        email: eb.ref('excluded.email'),
      })),
    )
    .execute();
}

/**
 * Claims up to `limit` notifications whose e-mail is due: moves their due time to `leaseUntil`
 * (so another worker passes them over, and a worker that dies leaves them due again then) and
 * returns them with what their e-mail says.
 */
export async function claimDueEmails(db: Executor, now: string, leaseUntil: string, limit: number) {
  const due = await db
    .selectFrom('notifications')
    .select('id')
    .where('email_due_at', '<=', now)
    .orderBy('user_id')
    .orderBy('reason')
    .orderBy('id')
    .limit(limit)
    .execute();
  if (due.length === 0) return [];
  const claimed = await db
    .updateTable('notifications')
    .set({ email_due_at: leaseUntil })
    .where(
      'id',
      'in',
      due.map((d) => d.id),
    )
    .where('email_due_at', '<=', now)
    .returning('id')
    .execute();
  if (claimed.length === 0) return [];
  return db
    .selectFrom('notifications as n')
    .innerJoin('users as u', 'u.id', 'n.user_id')
    .leftJoin('tasks as t', 't.id', 'n.task_id')
    .select([
      'n.id',
      'n.user_id',
      'n.reason',
      'n.subject',
      'n.body',
      'n.data',
      'n.project_id',
      'n.comment_id',
      'n.email_attempts',
      'u.email',
      'u.active',
      't.key as task_key',
    ])
    .where(
      'n.id',
      'in',
      claimed.map((c) => c.id),
    )
    .orderBy('n.user_id')
    .orderBy('n.reason')
    .orderBy('n.id')
    .execute();
}

export async function markEmailed(db: Executor, ids: number[], at: string): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ emailed_at: at, email_due_at: null, email_error: null })
    .where('id', 'in', ids)
    .execute();
}

/** A failed attempt: due again at `retryAt`, or (null) given up. */
export async function markEmailFailed(
  db: Executor,
  ids: number[],
  error: string,
  retryAt: string | null,
): Promise<void> {
  await db
    .updateTable('notifications')
    .set((eb) => ({ email_error: error, email_due_at: retryAt, email_attempts: eb('email_attempts', '+', 1) }))
    .where('id', 'in', ids)
    .execute();
}

/** Notifications that are not to be mailed after all (the reason: `note`). */
export async function dropEmails(db: Executor, ids: number[], note: string): Promise<void> {
  await db.updateTable('notifications').set({ email_due_at: null, email_error: note }).where('id', 'in', ids).execute();
}
