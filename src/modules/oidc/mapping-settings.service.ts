import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import type { ProjectRole, WorkspaceRole } from '../../db/schema.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import { forbidden, invalid, notFound } from '../../http/errors.ts';
import type { OidcConfig, ProjectMapping, RoleMapping } from '../../identity/oidc-config.ts';
import type { Principal } from '../../identity/principal.ts';
import { lockOrganization } from '../people/people.repository.ts';
import { changedFields, hasChanges, recordAudit } from '../audit/record-audit.ts';
import { projectsByKeys } from '../accounts/accounts.repository.ts';
import * as repo from './oidc.repository.ts';

/**
 * The group mapping an owner edits in Settings → Sign-in (docs/operating/oidc.md, "Groups to
 * roles"). Once saved it replaces OIDC_GROUPS_CLAIM, OIDC_ROLE_MAP and OIDC_PROJECT_MAP for the
 * organization; removing it goes back to them. Every change is an `oidc.mapping_changed` record.
 */

export interface GroupMapping {
  /** `environment`: the OIDC_* variables; `settings`: saved in Settings → Sign-in. */
  source: 'environment' | 'settings';
  groupsClaim: string;
  roleMap: RoleMapping[];
  projectMap: ProjectMapping[];
}

/** The mapping sign-ins of this organization use: the saved one, else the environment's. */
export async function effectiveMapping(db: Executor, oidc: OidcConfig, organizationId: number): Promise<GroupMapping> {
  const row = await repo.findMapping(db, organizationId);
  if (!row)
    return { source: 'environment', groupsClaim: oidc.groupsClaim, roleMap: oidc.roleMap, projectMap: oidc.projectMap };
  return {
    source: 'settings',
    groupsClaim: row.groups_claim,
    roleMap: JSON.parse(row.role_map) as RoleMapping[],
    projectMap: JSON.parse(row.project_map) as ProjectMapping[],
  };
}

/** The mapping as the console shows it, and as its audit records hold it. */
function present(mapping: GroupMapping) {
  return {
    source: mapping.source,
    groups_claim: mapping.groupsClaim,
    roles: mapping.roleMap.map(({ group, role }) => ({ group, role })),
    projects: mapping.projectMap.map(({ group, project, role }) => ({ group, project, role })),
  };
}

/** Owners only; then the provider must be configured (the mapping applies to its sign-ins). */
function ownerAndProvider(ctx: AppContext, principal: Principal): OidcConfig {
  if (principal.role !== 'owner') throw forbidden('Only owners can see and change the group mapping.');
  if (!ctx.config.oidc) throw notFound('OpenID Connect sign-in (OIDC_ISSUER is not set)');
  return ctx.config.oidc;
}

export async function readMapping(ctx: AppContext, principal: Principal) {
  const oidc = ownerAndProvider(ctx, principal);
  const mapping = await effectiveMapping(ctx.db, oidc, principal.organizationId);
  const row = mapping.source === 'settings' ? await repo.findMapping(ctx.db, principal.organizationId) : undefined;
  return {
    ...present(mapping),
    updated_at: row?.updated_at ?? null,
    updated_by: row?.updated_by ? { id: row.updated_by, name: row.updated_by_name ?? '' } : null,
  };
}

export interface MappingInput {
  groups_claim: string;
  roles: Array<{ group: string; role: WorkspaceRole }>;
  projects: Array<{ group: string; project: string; role: ProjectRole }>;
}

/**
 * Saves the organization's mapping (`input`), or removes it (null) to go back to the
 * environment's; records the change when there is one. Project keys must name projects of the
 * organization: a typo would otherwise map nobody, silently.
 */
export async function saveMapping(ctx: AppContext, principal: Principal, input: MappingInput | null) {
  const oidc = ownerAndProvider(ctx, principal);
  await inTransaction(ctx, async (tx) => {
    await lockOrganization(tx.db, tx.dialect, principal.organizationId);
    const before = await effectiveMapping(tx.db, oidc, principal.organizationId);
    if (input) {
      const keys = [...new Set(input.projects.map((entry) => entry.project))];
      const found = await projectsByKeys(tx.db, principal.organizationId, keys);
      const missing = input.projects.findIndex((entry) => !found.some((p) => p.key === entry.project));
      if (missing >= 0)
        throw invalid({ [`projects[${missing}].project`]: `no project ${input.projects[missing]!.project}` });
      await repo.upsertMapping(tx.db, {
        organization_id: principal.organizationId,
        groups_claim: input.groups_claim,
        role_map: JSON.stringify(input.roles.map(({ group, role }) => ({ group, role }))),
        project_map: JSON.stringify(input.projects.map(({ group, project, role }) => ({ group, project, role }))),
        updated_at: tx.clock.nowIso(),
        updated_by: principal.userId,
      });
    } else await repo.deleteMapping(tx.db, principal.organizationId);
    const after = await effectiveMapping(tx.db, oidc, principal.organizationId);
    const changes = changedFields(present(before), present(after));
    if (hasChanges(changes))
      await recordAudit(tx, {
        organizationId: principal.organizationId,
        actor: principal,
        action: 'oidc.mapping_changed',
        target: { type: 'oidc_mapping', id: null, label: 'OpenID Connect group mapping' },
        ...changes,
      });
  });
  return readMapping(ctx, principal);
}
