import type { Executor } from '../../db/database.ts';

/** The daily digest's SQL: whose digest is due, and what it holds. */

/** Every organization with its standup schedule (null columns: it never changed the defaults). */
export function organizationSchedules(db: Executor) {
  return db
    .selectFrom('organizations as o')
    .leftJoin('standup_settings as s', 's.organization_id', 'o.id')
    .select(['o.id', 'o.slug', 'o.name', 's.timezone', 's.days', 's.reminder_time'])
    .orderBy('o.id')
    .execute();
}

/**
 * Active people of the organization who have had no digest for `date` or a later day (a
 * timezone moved west must not send yesterday's after today's) and have neither submitted nor
 * skipped `date`.
 */
export function digestRecipients(db: Executor, organizationId: number, date: string, limit: number) {
  return db
    .selectFrom('users as u')
    .select(['u.id', 'u.handle'])
    .where('u.organization_id', '=', organizationId)
    .where('u.active', '=', 1)
    .where('u.kind', '=', 'human')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('standup_digests as d')
            .select('d.id')
            .whereRef('d.user_id', '=', 'u.id')
            .where('d.date', '>=', date),
        ),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('standup_entries as e')
            .select('e.id')
            .whereRef('e.user_id', '=', 'u.id')
            .where('e.date', '=', date)
            .where('e.state', 'in', ['submitted', 'skipped']),
        ),
      ),
    )
    .orderBy('u.id')
    .limit(limit)
    .execute();
}

/** Records the person's digest of `date`; false when one exists already (another worker sent it). */
export async function claimDigest(db: Executor, userId: number, date: string, now: string): Promise<boolean> {
  const row = await db
    .insertInto('standup_digests')
    .values({ user_id: userId, date, created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'date']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** When the person's previous digest (before `date`) was sent, if they had one. */
export async function previousDigestAt(db: Executor, userId: number, date: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('standup_digests')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('date', '<', date)
    .orderBy('date', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.created_at;
}

/** The person's tasks in flight (in an in_progress-category status) in projects they are a member of, latest first. */
export function tasksInFlight(db: Executor, userId: number, limit: number) {
  return db
    .selectFrom('tasks as t')
    .innerJoin('statuses as s', 's.id', 't.status_id')
    .innerJoin('project_memberships as pm', (join) =>
      join.onRef('pm.project_id', '=', 't.project_id').on('pm.user_id', '=', userId),
    )
    .select(['t.key', 't.title', 's.name as status'])
    .where('t.assignee_id', '=', userId)
    .where('s.category', '=', 'in_progress')
    .orderBy('t.updated_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * What others (or the scheduler) did since `since` to the tasks the person follows (explicitly,
 * or as assignee or creator unless they unfollowed), in projects they are a member of, oldest first. Cross-task
 * references are left out: their rows are shown only to readers of the naming task.
 */
export function followedActivity(db: Executor, userId: number, since: string, limit: number) {
  return db
    .selectFrom('activities as a')
    .innerJoin('tasks as t', 't.id', 'a.task_id')
    .innerJoin('project_memberships as pm', (join) =>
      join.onRef('pm.project_id', '=', 't.project_id').on('pm.user_id', '=', userId),
    )
    .leftJoin('users as u', 'u.id', 'a.actor_id')
    .select(['t.id as task_id', 't.key', 't.title', 'a.action', 'a.field', 'u.name as actor_name'])
    .where('a.created_at', '>', since)
    .where('a.action', '!=', 'mentioned_in')
    .where((eb) => eb.or([eb('a.actor_id', 'is', null), eb('a.actor_id', '!=', userId)]))
    .where((eb) =>
      eb.or([
        eb('t.assignee_id', '=', userId),
        eb('t.created_by', '=', userId),
        eb.exists(
          eb
            .selectFrom('task_followers as f')
            .select('f.id')
            .whereRef('f.task_id', '=', 't.id')
            .where('f.user_id', '=', userId),
        ),
      ]),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('task_unfollows as x')
            .select('x.id')
            .whereRef('x.task_id', '=', 't.id')
            .where('x.user_id', '=', userId),
        ),
      ),
    )
    .orderBy('a.id')
    .limit(limit)
    .execute();
}

/**
 * The blockers each person of the organization declares now: those of their latest submitted
 * entry, if it is of a day in [from, to]; with the assignee of the task each names.
 */
export function currentBlockers(db: Executor, organizationId: number, from: string, to: string) {
  return db
    .selectFrom('standup_blockers as b')
    .innerJoin('standup_entries as e', 'e.id', 'b.entry_id')
    .innerJoin('users as u', 'u.id', 'e.user_id')
    .leftJoin('tasks as t', (join) => join.onRef('t.key', '=', 'b.task_key').onRef('t.project_id', '=', 'b.project_id'))
    .select(['e.user_id', 'u.name', 'b.text', 'b.task_key', 'b.project_id', 't.assignee_id'])
    .where('e.organization_id', '=', organizationId)
    .where('e.date', '>=', from)
    .where('e.date', '=', (eb) =>
      eb
        .selectFrom('standup_entries as l')
        .select((l) => l.fn.max('l.date').as('date'))
        .whereRef('l.user_id', '=', 'e.user_id')
        .where('l.state', '=', 'submitted')
        .where('l.date', '<=', to),
    )
    .orderBy('e.user_id')
    .orderBy('b.position')
    .execute();
}

/** The projects the person is a member of. */
export async function memberProjectIds(db: Executor, userId: number): Promise<Set<number>> {
  const rows = await db.selectFrom('project_memberships').select('project_id').where('user_id', '=', userId).execute();
  return new Set(rows.map((r) => r.project_id));
}
