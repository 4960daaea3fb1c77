import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/database.ts';
import type { ProjectRole, WorkspaceRole } from '../../db/schema.ts';
import { inTransaction, type Tx, withSavepoint } from '../../db/unit-of-work.ts';
import { ApiError, invalid, notFound } from '../../http/errors.ts';
import { roleRefusal } from '../../policy/index.ts';
import { lockProjectForDecision } from '../projects/projects.repository.ts';
import { assertAnotherAdminRemains, recordMembershipChangedEvent } from '../projects/memberships.service.ts';
import { operatorOrigin } from '../../events/record-event.ts';
import { findOrganization as organizationById } from '../people/people.repository.ts';
import { insertMembership } from '../projects/memberships.repository.ts';
import * as repo from './accounts.repository.ts';
import { handleForNewAccount } from './handles.service.ts';

/**
 * The human side of access: organizations, people, service accounts and project membership
 * grants (docs/operating/cli.md; tokens are src/identity/tokens.service.ts). Used by the operator CLI and by other services,
 * never exposed over HTTP as such. Each write is a unit of work of its own, or joins the
 * caller's when given one (src/db/unit-of-work.ts).
 */
const WORKSPACE_ROLES: WorkspaceRole[] = ['owner', 'admin', 'member', 'guest'];
const PROJECT_ROLES: ProjectRole[] = ['admin', 'member', 'viewer'];

/** `insert`, with a unique violation answered as 409 ALREADY_EXISTS; the transaction stays usable. */
async function insertUnique<R>(tx: Tx, insert: () => Promise<R>, conflict: () => ApiError): Promise<R> {
  try {
    return await withSavepoint(tx, insert);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict();
    throw error;
  }
}

export async function createOrganization(ctx: AppContext, input: { name: string; slug: string }) {
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(input.slug)) throw invalid({ slug: 'lowercase letters, digits and dashes' });
  return inTransaction(ctx, (tx) =>
    insertUnique(
      tx,
      () => repo.insertOrganization(tx.db, { name: input.name, slug: input.slug, created_at: tx.clock.nowIso() }),
      () => new ApiError('ALREADY_EXISTS', `Organization ${input.slug} already exists.`, { field: 'slug' }),
    ),
  );
}

export async function findOrganization(ctx: AppContext, slug: string) {
  const org = await repo.findOrganizationBySlug(ctx.db, slug);
  if (!org) throw notFound(`Organization ${slug}`);
  return org;
}

export async function createUser(
  ctx: AppContext,
  input: { org: string; kind: 'human' | 'service'; name: string; email?: string | null; role: WorkspaceRole },
) {
  if (!WORKSPACE_ROLES.includes(input.role)) throw invalid({ role: `one of ${WORKSPACE_ROLES.join(', ')}` });
  const refused = roleRefusal(input.kind, input.role);
  if (refused) throw invalid({ role: refused });
  return inTransaction(ctx, async (tx) => {
    const org = await findOrganization(tx, input.org);
    const account = { kind: input.kind, name: input.name, email: input.email ?? null };
    const values = {
      organization_id: org.id,
      ...account,
      role: input.role,
      created_at: tx.clock.nowIso(),
      handle: await handleForNewAccount(tx, org.id, account),
    };
    return insertUnique(
      tx,
      () => repo.insertUser(tx.db, values),
      () => new ApiError('ALREADY_EXISTS', `A user with e-mail ${input.email} already exists.`, { field: 'email' }),
    );
  });
}

/**
 * Grants (or changes) a project role; the operator's way to give an account its first project.
 * The same rule as the API holds: a project always keeps one admin. The answer says whether
 * the account was added, its role changed (with the previous one) or nothing changed.
 */
export async function addProjectMember(
  ctx: AppContext,
  input: { projectKey: string; userId: number; role: ProjectRole; org?: string },
) {
  if (!PROJECT_ROLES.includes(input.role)) throw invalid({ role: `one of ${PROJECT_ROLES.join(', ')}` });
  return inTransaction(ctx, async (tx) => {
    const user = await repo.findAccount(tx.db, input.userId);
    if (!user) throw notFound(`User ${input.userId}`);
    const [project] = await repo.projectsByKeys(tx.db, user.organization_id, [input.projectKey]);
    if (!project) throw notFound(`Project ${input.projectKey} in the user's organization`);
    const now = tx.clock.nowIso();
    // membership.changed, as for a change through the API, caused by the operator.
    const { id: orgId, slug, name } = await organizationById(tx.db, user.organization_id);
    const origin = operatorOrigin({ id: orgId, slug, name });
    const announce = (id: number, change: 'added' | 'role_changed', from: ProjectRole | null) =>
      recordMembershipChangedEvent(
        tx,
        origin,
        { id, project: project.id, project_key: project.key, user: user.id, user_name: user.name },
        change,
        from,
        input.role,
      );
    // Under the project's lock, like the API's membership changes, so the last-admin rule holds
    // against a concurrent change through the API.
    await lockProjectForDecision(tx.db, tx.dialect, project.id);
    const existing = await repo.findMembership(tx.db, project.id, user.id);
    if (existing) {
      const result = {
        id: existing.id,
        project: project.key,
        user: user.id,
        role: input.role,
        previous_role: existing.role,
      };
      if (existing.role === input.role) return { ...result, action: 'unchanged' as const };
      if (existing.role === 'admin') await assertAnotherAdminRemains(tx.db, project.id, existing.id);
      await repo.updateMembershipRole(tx.db, existing.id, input.role, now);
      await announce(existing.id, 'role_changed', existing.role);
      return { ...result, action: 'changed' as const };
    }
    const id = await insertMembership(tx.db, { project_id: project.id, user_id: user.id, role: input.role, at: now });
    await announce(id, 'added', null);
    return { id, project: project.key, user: user.id, role: input.role, previous_role: null, action: 'added' as const };
  });
}
