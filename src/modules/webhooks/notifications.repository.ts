import type { Executor } from '../../db/database.ts';

/** Notifications people receive (an endpoint disabled for failures), and their e-mail state. */

/** Disables the endpoint if it is still enabled: its row, or undefined when it was not (another worker got there first). */
export function disableEnabledEndpoint(db: Executor, endpointId: number, reason: string, now: string) {
  return db
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_reason: reason, updated_at: now })
    .where('id', '=', endpointId)
    .where('enabled', '=', 1)
    .returning(['id', 'url', 'organization_id', 'created_by', 'project_id'])
    .executeTakeFirst();
}

/** The endpoint's creator and the organization's owners, by id. */
export function endpointStewards(db: Executor, organizationId: number, createdBy: number) {
  return db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('organization_id', '=', organizationId)
    .where((eb) => eb.or([eb('id', '=', createdBy), eb('role', '=', 'owner')]))
    .orderBy('id')
    .execute();
}

export async function markNotificationEmailed(db: Executor, id: number, at: string): Promise<void> {
  await db.updateTable('notifications').set({ emailed_at: at }).where('id', '=', id).execute();
}

export async function markNotificationEmailFailed(db: Executor, id: number, error: string): Promise<void> {
  await db.updateTable('notifications').set({ email_error: error }).where('id', '=', id).execute();
}

/** Notifications with their person and organization, newest first (the operator's view). */
export function recentNotifications(db: Executor, options: { org?: string; limit: number }) {
  return db
    .selectFrom('notifications as n')
    .innerJoin('users as u', 'u.id', 'n.user_id')
    .innerJoin('organizations as o', 'o.id', 'n.organization_id')
    .select([
      'n.id',
      'o.slug as organization',
      'n.user_id as user',
      'u.name as user_name',
      'u.email as user_email',
      'n.kind',
      'n.subject',
      'n.body',
      'n.data',
      'n.created_at',
      'n.emailed_at',
      'n.email_error',
    ])
    .orderBy('n.id', 'desc')
    .limit(options.limit)
    .$if(Boolean(options.org), (qb) => qb.where('o.slug', '=', options.org!))
    .execute();
}

/** One's own notifications, newest first (at most `limit`). */
export function notificationsOf(db: Executor, userId: number, limit: number) {
  return db
    .selectFrom('notifications')
    .select(['id', 'kind', 'subject', 'data', 'created_at', 'read_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export function findOwnNotification(db: Executor, userId: number, id: number) {
  return db
    .selectFrom('notifications')
    .select(['id', 'read_at'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function markNotificationRead(db: Executor, id: number, at: string): Promise<void> {
  await db.updateTable('notifications').set({ read_at: at }).where('id', '=', id).execute();
}
