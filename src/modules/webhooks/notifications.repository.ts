import type { Executor } from '../../db/database.ts';

/** An endpoint disabled for its failures, who hears of it, and the operator's view of notifications. */

/** Disables the endpoint if it is still enabled: its row, or undefined when it was not (another worker got there first). */
export function disableEnabledEndpoint(db: Executor, endpointId: number, reason: string, now: string) {
  return db
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_reason: reason, updated_at: now })
    .where('id', '=', endpointId)
    .where('enabled', '=', 1)
    .returning(['id', 'url', 'organization_id', 'created_by', 'governed_by', 'project_id'])
    .executeTakeFirst();
}

/**
 * Who hears of an endpoint disabled: its creator, its governing account and the workspace
 * owners and admins, each active and only while they may see the endpoint (as
 * visibleEndpoints decides): a member of its project, or for an endpoint spanning projects,
 * a member of every project its governing account delivers.
 */
export function endpointAudience(
  db: Executor,
  endpoint: { organization_id: number; created_by: number; governed_by: number; project_id: number | null },
) {
  return db
    .selectFrom('users as u')
    .select(['u.id'])
    .where('u.organization_id', '=', endpoint.organization_id)
    .where('u.active', '=', 1)
    .where((eb) =>
      eb.or([eb('u.id', 'in', [endpoint.created_by, endpoint.governed_by]), eb('u.role', 'in', ['owner', 'admin'])]),
    )
    .where((eb) =>
      endpoint.project_id !== null
        ? eb.exists(
            eb
              .selectFrom('project_memberships as pm')
              .select('pm.project_id')
              .whereRef('pm.user_id', '=', 'u.id')
              .where('pm.project_id', '=', endpoint.project_id),
          )
        : eb.not(
            eb.exists(
              eb
                .selectFrom('project_memberships as gm')
                .select('gm.project_id')
                .where('gm.user_id', '=', endpoint.governed_by)
                .where((inner) =>
                  inner.not(
                    inner.exists(
                      inner
                        .selectFrom('project_memberships as pm')
                        .select('pm.project_id')
                        .whereRef('pm.project_id', '=', 'gm.project_id')
                        .whereRef('pm.user_id', '=', 'u.id'),
                    ),
                  ),
                ),
            ),
          ),
    )
    .orderBy('u.id')
    .execute();
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
      'n.reason',
      'n.subject',
      'n.body',
      'n.data',
      'n.created_at',
      'n.read_at',
      'n.emailed_at',
      'n.email_error',
    ])
    .orderBy('n.id', 'desc')
    .limit(options.limit)
    .$if(Boolean(options.org), (qb) => qb.where('o.slug', '=', options.org!))
    .execute();
}
