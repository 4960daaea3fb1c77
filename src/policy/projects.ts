import type { Executor } from '../db/database.ts';
import { foundOr404, notFound } from '../http/errors.ts';
import { visibleProjectsOf } from '../identity/auth-cache.ts';
import type { Principal } from '../identity/principal.ts';
import { type Action, authorize } from './authorize.ts';
import { findVisibleProjectRef, type ProjectRef } from './visibility.repository.ts';

/**
 * The project addressed by id or key, if the caller may take `action` on it: unknown or
 * invisible is 404 NOT_FOUND, visible without the role for it 403 FORBIDDEN.
 */
export async function projectFor(
  db: Executor,
  principal: Principal,
  by: { id: number } | { key: string },
  action: Extract<Action, 'project.read' | 'project.contribute' | 'project.administer'> = 'project.read',
  what?: string,
): Promise<ProjectRef> {
  const project = await foundOr404(findVisibleProjectRef(db, principal, by), 'Project');
  authorize(principal, action, { kind: 'project', project }, what);
  return project;
}

/**
 * As projectFor with 'project.read', answered from the caller's visible projects as cached
 * for this request (auth-cache.ts): for the read paths that run most.
 */
export async function readableProjectByKey(db: Executor, principal: Principal, key: string): Promise<ProjectRef> {
  const project = (await visibleProjectsOf(db, principal)).byKey.get(key);
  if (!project) throw notFound('Project');
  return project;
}

/**
 * Of rows found by a key that is unique per workspace, not across them, the one in a project the
 * caller sees (cached for this request, auth-cache.ts); none is a 404 naming `what`. Deciding
 * here rather than in SQL keeps the read by key on its index on SQLite.
 */
export async function visibleAmongKeyed<R extends { project_id: number }>(
  db: Executor,
  principal: Principal,
  rows: R[],
  what: string,
): Promise<R> {
  const visible = await visibleProjectsOf(db, principal);
  const row = rows.find((r) => visible.byId.has(r.project_id));
  if (!row) throw notFound(what);
  return row;
}
