import type { Executor } from '../../db/database.ts';
import type { Principal } from '../auth/principal.ts';

/**
 * Projects the caller can see: its account's memberships, narrowed by the token's project
 * restriction (spec 5 rule 2, 4.3 rule 1). Every lookup of a project-owned row goes through
 * here, so "404, not 403" (4.3 rule 2) holds by construction.
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

export function findVisibleProjectRef(db: Executor, principal: Principal, by: { id: number } | { key: string }): Promise<ProjectRef | undefined> {
  const query = visibleProjects(db, principal).select(['p.id', 'p.key', 'p.name', 'p.organization_id', 'p.workflow_id', 'pm.role']);
  return ('id' in by ? query.where('p.id', '=', by.id) : query.where('p.key', '=', by.key)).executeTakeFirst();
}

/** Every project the caller can see, by key and by id (see auth-cache.ts for when it is reused). */
export interface VisibleProjects {
  byKey: Map<string, ProjectRef>;
  byId: Map<number, ProjectRef>;
}

export async function loadVisibleProjects(db: Executor, principal: Principal): Promise<VisibleProjects> {
  const rows = await visibleProjects(db, principal).select(['p.id', 'p.key', 'p.name', 'p.organization_id', 'p.workflow_id', 'pm.role']).execute();
  return { byKey: new Map(rows.map((r) => [r.key, r])), byId: new Map(rows.map((r) => [r.id, r])) };
}
