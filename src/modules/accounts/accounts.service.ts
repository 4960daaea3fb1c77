import type { AppContext } from '../../context.ts';
import { isoFromMs } from '../../clock.ts';
import { isUniqueViolation } from '../../db/database.ts';
import type { ProjectRole, WorkspaceRole } from '../../db/schema.ts';
import { ApiError, invalid, notFound } from '../../http/errors.ts';
import { isScope } from '../auth/scopes.ts';
import { lockProjectForDecision } from '../projects/projects.repository.ts';
import { assertAnotherAdminRemains } from '../projects/memberships.service.ts';
import { displayPrefix, generateToken, hashToken } from '../auth/tokens.ts';

/**
 * The human side of access: organizations, people, service accounts, tokens and project
 * membership grants. Used by the operator CLI, never exposed over HTTP (spec 1).
 */
const WORKSPACE_ROLES: WorkspaceRole[] = ['owner', 'admin', 'member', 'guest'];
const PROJECT_ROLES: ProjectRole[] = ['admin', 'member', 'viewer'];

export async function createOrganization(ctx: AppContext, input: { name: string; slug: string }) {
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(input.slug)) throw invalid({ slug: 'lowercase letters, digits and dashes' });
  try {
    const row = await ctx.db
      .insertInto('organizations')
      .values({ name: input.name, slug: input.slug, created_at: ctx.clock.nowIso() })
      .returning(['id', 'slug', 'name'])
      .executeTakeFirstOrThrow();
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('ALREADY_EXISTS', `Organization ${input.slug} already exists.`, { field: 'slug' });
    throw error;
  }
}

export async function findOrganization(ctx: AppContext, slug: string) {
  const org = await ctx.db.selectFrom('organizations').select(['id', 'slug', 'name']).where('slug', '=', slug).executeTakeFirst();
  if (!org) throw notFound(`Organization ${slug}`);
  return org;
}

export async function createUser(
  ctx: AppContext,
  input: { org: string; kind: 'human' | 'service'; name: string; email?: string | null; role: WorkspaceRole },
) {
  if (!WORKSPACE_ROLES.includes(input.role)) throw invalid({ role: `one of ${WORKSPACE_ROLES.join(', ')}` });
  if (input.kind === 'service' && input.role === 'owner') throw invalid({ role: 'a service account cannot be an owner' });
  const org = await findOrganization(ctx, input.org);
  try {
    return await ctx.db
      .insertInto('users')
      .values({
        organization_id: org.id,
        kind: input.kind,
        name: input.name,
        email: input.email ?? null,
        role: input.role,
        created_at: ctx.clock.nowIso(),
      })
      .returning(['id', 'organization_id', 'kind', 'name', 'email', 'role'])
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('ALREADY_EXISTS', `A user with e-mail ${input.email} already exists.`, { field: 'email' });
    throw error;
  }
}

export async function createToken(
  ctx: AppContext,
  input: { accountId: number; scopes: string[]; projectKeys?: string[]; expiresInHours?: number; name?: string },
) {
  const account = await ctx.db.selectFrom('users').select(['id', 'organization_id', 'kind']).where('id', '=', input.accountId).executeTakeFirst();
  if (!account) throw notFound(`Account ${input.accountId}`);
  const unknown = input.scopes.filter((s) => !isScope(s));
  if (unknown.length || input.scopes.length === 0) throw invalid({ scopes: `unknown or empty: ${unknown.join(', ') || '(none)'}` });

  let projectIds: number[] | null = null;
  if (input.projectKeys) {
    const rows = await ctx.db
      .selectFrom('projects')
      .select(['id', 'key'])
      .where('organization_id', '=', account.organization_id)
      .where('key', 'in', input.projectKeys.length ? input.projectKeys : [''])
      .execute();
    const missing = input.projectKeys.filter((key) => !rows.some((r) => r.key === key));
    if (missing.length) throw invalid({ projects: `unknown project keys: ${missing.join(', ')}` });
    projectIds = rows.map((r) => r.id);
  }

  const token = generateToken();
  const expiresAt = input.expiresInHours !== undefined ? isoFromMs(ctx.clock.nowMs() + input.expiresInHours * 3_600_000) : null;
  const row = await ctx.db
    .insertInto('api_tokens')
    .values({
      user_id: account.id,
      token_hash: hashToken(token),
      token_prefix: displayPrefix(token),
      scopes: JSON.stringify([...new Set(input.scopes)]),
      project_ids: projectIds === null ? null : JSON.stringify(projectIds),
      expires_at: expiresAt,
      revoked_at: null,
      created_at: ctx.clock.nowIso(),
      name: input.name ?? '',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, name: input.name ?? '', token, scopes: [...new Set(input.scopes)], projects: input.projectKeys ?? null, expires_at: expiresAt };
}

export async function revokeToken(ctx: AppContext, tokenId: number) {
  const now = ctx.clock.nowIso();
  const result = await ctx.db
    .updateTable('api_tokens')
    .set({ revoked_at: now })
    .where('id', '=', tokenId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    const exists = await ctx.db.selectFrom('api_tokens').select('revoked_at').where('id', '=', tokenId).executeTakeFirst();
    if (!exists) throw notFound(`Token ${tokenId}`);
    return { id: tokenId, revoked_at: exists.revoked_at };
  }
  return { id: tokenId, revoked_at: now };
}

/**
 * Grants (or changes) a project role; the operator's way to give an account its first project.
 * The same rule as the API holds: a project always keeps one admin. The answer says whether
 * the account was added, its role changed (with the previous one) or nothing changed.
 */
export async function addProjectMember(ctx: AppContext, input: { projectKey: string; userId: number; role: ProjectRole; org?: string }) {
  if (!PROJECT_ROLES.includes(input.role)) throw invalid({ role: `one of ${PROJECT_ROLES.join(', ')}` });
  const user = await ctx.db.selectFrom('users').select(['id', 'organization_id']).where('id', '=', input.userId).executeTakeFirst();
  if (!user) throw notFound(`User ${input.userId}`);
  const project = await ctx.db
    .selectFrom('projects')
    .select(['id', 'key'])
    .where('key', '=', input.projectKey)
    .where('organization_id', '=', user.organization_id)
    .executeTakeFirst();
  if (!project) throw notFound(`Project ${input.projectKey} in the user's organization`);
  const now = ctx.clock.nowIso();
  // Under the project's lock, like the API's membership changes, so the last-admin rule holds
  // against a concurrent change through the API.
  return ctx.db.transaction().execute(async (trx) => {
    await lockProjectForDecision(trx, ctx.dialect, project.id);
    const existing = await trx
      .selectFrom('project_memberships')
      .select(['id', 'role'])
      .where('project_id', '=', project.id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (existing) {
      const result = { id: existing.id, project: project.key, user: user.id, role: input.role, previous_role: existing.role };
      if (existing.role === input.role) return { ...result, action: 'unchanged' as const };
      if (existing.role === 'admin') await assertAnotherAdminRemains(trx, project.id, existing.id);
      await trx.updateTable('project_memberships').set({ role: input.role, updated_at: now }).where('id', '=', existing.id).execute();
      return { ...result, action: 'changed' as const };
    }
    const row = await trx
      .insertInto('project_memberships')
      .values({ project_id: project.id, user_id: user.id, role: input.role, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, project: project.key, user: user.id, role: input.role, previous_role: null, action: 'added' as const };
  });
}
