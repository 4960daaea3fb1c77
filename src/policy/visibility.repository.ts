import type { Executor } from '../db/database.ts';
import type { Principal } from '../identity/principal.ts';
import { isWorkspaceAdmin } from './authorize.ts';

/**
 * Projects the caller can see: its account's memberships, narrowed by the token's project
 * restriction (docs/api/access.md). Every lookup of a project-owned row goes through
 * here, so an invisible project answers 404, not 403, by construction.
 */
export function visibleProjects(db: Executor, principal: Principal) {
  let query = db
    .selectFrom('projects as p')
    .innerJoin('project_memberships as pm', (join) =>
      join.onRef('pm.project_id', '=', 'p.id').on('pm.user_id', '=', principal.userId),
    )
    .where('p.organization_id', '=', principal.organizationId);
  if (principal.projectRestriction) {
    // An empty restriction list sees nothing; `in ()` is not valid SQL, so compare with an impossible id.
    query = query.where('p.id', 'in', principal.projectRestriction.length ? principal.projectRestriction : [-1]);
  }
  return query;
}

/** Ids of the visible projects, as a subquery for filtering project-owned tables. */
export function visibleProjectIds(db: Executor, principal: Principal) {
  return visibleProjects(db, principal).select('p.id');
}

export interface ProjectRef {
  id: number;
  key: string;
  name: string;
  organization_id: number;
  workflow_id: number | null;
  role: 'admin' | 'member' | 'viewer';
}

export function findVisibleProjectRef(
  db: Executor,
  principal: Principal,
  by: { id: number } | { key: string },
): Promise<ProjectRef | undefined> {
  const query = visibleProjects(db, principal).select([
    'p.id',
    'p.key',
    'p.name',
    'p.organization_id',
    'p.workflow_id',
    'pm.role',
  ]);
  return ('id' in by ? query.where('p.id', '=', by.id) : query.where('p.key', '=', by.key)).executeTakeFirst();
}

/** Every project the caller can see, by key and by id (see auth-cache.ts for when it is reused). */
export interface VisibleProjects {
  byKey: Map<string, ProjectRef>;
  byId: Map<number, ProjectRef>;
}

export async function loadVisibleProjects(db: Executor, principal: Principal): Promise<VisibleProjects> {
  const rows = await visibleProjects(db, principal)
    .select(['p.id', 'p.key', 'p.name', 'p.organization_id', 'p.workflow_id', 'pm.role'])
    .execute();
  return { byKey: new Map(rows.map((r) => [r.key, r])), byId: new Map(rows.map((r) => [r.id, r])) };
}

/**
 * The projects each of these people sees through a session (their memberships in their own
 * organization; a session has no project restriction), as (user, project) pairs: for the live
 * streams of many people at once.
 */
export function visibleProjectIdsOfPeople(db: Executor, userIds: number[]) {
  return db
    .selectFrom('project_memberships as pm')
    .innerJoin('users as u', 'u.id', 'pm.user_id')
    .innerJoin('projects as p', (join) =>
      join.onRef('p.id', '=', 'pm.project_id').onRef('p.organization_id', '=', 'u.organization_id'),
    )
    .select(['pm.user_id', 'pm.project_id'])
    .where('pm.user_id', 'in', userIds.length ? userIds : [-1])
    .execute();
}

/**
 * Projects whose events an endpoint spanning projects delivers: those its governing account
 * (the account that last set its URL, events or filter) is a member of, at fan-out time.
 */
export function projectIdsOfAccount(db: Executor, userId: number) {
  return db.selectFrom('project_memberships').select('project_id').where('user_id', '=', userId);
}

/** Whether the account is a member of the project (whatever its role). */
export async function isMemberOf(db: Executor, userId: number, projectId: number): Promise<boolean> {
  const row = await db
    .selectFrom('project_memberships')
    .select('id')
    .where('user_id', '=', userId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Webhook endpoints the caller can see; anything else is a 404. A project-bound endpoint is
 * seen by whoever sees its project. An endpoint spanning projects is seen by its creator, its
 * governing account and workspace owners/admins, and by each only while they see every project
 * it delivers (so nobody reads or steers deliveries of a project hidden from them). A token
 * restricted to projects sees only endpoints bound to one of them.
 */
export function visibleEndpoints(db: Executor, principal: Principal) {
  return db
    .selectFrom('webhook_endpoints as e')
    .where('e.organization_id', '=', principal.organizationId)
    .where((eb) => {
      const ofVisibleProject = eb('e.project_id', 'in', visibleProjectIds(db, principal));
      if (principal.projectRestriction !== null) return ofVisibleProject;
      const related = isWorkspaceAdmin(principal)
        ? []
        : [eb.or([eb('e.created_by', '=', principal.userId), eb('e.governed_by', '=', principal.userId)])];
      const hidesADeliveredProject = eb.exists(
        eb
          .selectFrom('project_memberships as gm')
          .select('gm.project_id')
          .whereRef('gm.user_id', '=', 'e.governed_by')
          .where('gm.project_id', 'not in', visibleProjectIds(db, principal)),
      );
      return eb.or([
        ofVisibleProject,
        eb.and([eb('e.project_id', 'is', null), ...related, eb.not(hidesADeliveredProject)]),
      ]);
    });
}

/**
 * Deliveries of visible endpoints, and only of events of projects the caller sees (or of no
 * project), and of no one else's notification.
 */
export function visibleDeliveries(db: Executor, principal: Principal) {
  return db
    .selectFrom('webhook_deliveries as d')
    .where('d.organization_id', '=', principal.organizationId)
    .where('d.endpoint_id', 'in', visibleEndpoints(db, principal).select('e.id'))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('event_outbox as o')
          .select('o.id')
          .whereRef('o.id', '=', 'd.outbox_id')
          .where((o) =>
            o.or([o('o.project_id', 'is', null), o('o.project_id', 'in', visibleProjectIds(db, principal))]),
          )
          .where((o) => o.or([o('o.recipient_id', 'is', null), o('o.recipient_id', '=', principal.userId)])),
      ),
    );
}

/**
 * Custom field definitions the caller can see: those applying to every project, to no project,
 * or to at least one project the caller sees. One applying only to hidden projects is a 404.
 */
export function visibleCustomFieldIds(db: Executor, principal: Principal) {
  return db
    .selectFrom('custom_fields as vf')
    .select('vf.id')
    .where('vf.organization_id', '=', principal.organizationId)
    .where((eb) => {
      const applies = eb
        .selectFrom('custom_field_projects as vfp')
        .select('vfp.project_id')
        .whereRef('vfp.field_id', '=', 'vf.id');
      return eb.or([
        eb('vf.all_projects', '=', 1),
        eb.not(eb.exists(applies)),
        eb.exists(applies.where('vfp.project_id', 'in', visibleProjectIds(db, principal))),
      ]);
    });
}

/** An account (person or service account) of the organization, with what the policy decides by. */
export function findAccountIn(db: Executor, organizationId: number, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'organization_id', 'kind', 'role', 'active', 'name', 'email'])
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}
