import type { ProjectRole, WorkspaceRole } from '../../db/schema.ts';
import type { OidcConfig } from '../../identity/oidc-config.ts';

/**
 * Groups to roles (docs/operating/oidc.md, "Groups to roles"). Pure: what a person's groups say
 * their workspace role and project roles should be, given what they are now. The mapping "owns"
 * the roles it names: a role it names is set or taken away by it at every sign-in; a role it does
 * not name, given by hand, is kept unless the person's groups now grant one.
 */
const WORKSPACE_RANK: Record<WorkspaceRole, number> = { guest: 0, member: 1, admin: 2, owner: 3 };
const PROJECT_RANK: Record<ProjectRole, number> = { viewer: 0, member: 1, admin: 2 };

/** The groups claim as a list of names: an array of strings, or one string. */
export function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

function highest<R extends string>(roles: R[], rank: Record<R, number>): R | null {
  return roles.reduce<R | null>((best, role) => (best === null || rank[role] > rank[best] ? role : best), null);
}

/** The workspace role the groups grant (the highest one), or null when no mapped group is among them. */
export function grantedRole(config: OidcConfig, groups: string[]): WorkspaceRole | null {
  return highest(
    config.roleMap.filter((entry) => groups.includes(entry.group)).map((entry) => entry.role),
    WORKSPACE_RANK,
  );
}

/** The workspace role after sign-in: what the groups grant, else the default if the mapping owned the current role. */
export function reconciledRole(config: OidcConfig, groups: string[], current: WorkspaceRole): WorkspaceRole {
  const granted = grantedRole(config, groups);
  if (granted !== null) return granted;
  const owned = config.roleMap.some((entry) => entry.role === current);
  return owned ? config.defaultRole : current;
}

/** Each mapped project's role after sign-in (null: no membership), given the current one (null: none). */
export function reconciledProjectRole(
  config: OidcConfig,
  groups: string[],
  project: string,
  current: ProjectRole | null,
): ProjectRole | null {
  const entries = config.projectMap.filter((entry) => entry.project === project);
  const granted = highest(
    entries.filter((entry) => groups.includes(entry.group)).map((entry) => entry.role),
    PROJECT_RANK,
  );
  if (granted !== null) return granted;
  return current !== null && entries.some((entry) => entry.role === current) ? null : current;
}

/** Whether a new person may be created from these claims: domain and groups as configured. */
export function mayCreate(config: OidcConfig, email: string, groups: string[]): { allowed: boolean; why: string } {
  if (config.allowedDomains.length === 0 && config.requiredGroups.length === 0)
    return {
      allowed: false,
      why: 'new people are not created here (neither OIDC_ALLOWED_DOMAINS nor OIDC_REQUIRED_GROUPS is set)',
    };
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (config.allowedDomains.length > 0 && !config.allowedDomains.includes(domain))
    return { allowed: false, why: `the e-mail domain ${domain} is not one of OIDC_ALLOWED_DOMAINS` };
  if (config.requiredGroups.length > 0 && !config.requiredGroups.some((group) => groups.includes(group)))
    return { allowed: false, why: 'not in any of OIDC_REQUIRED_GROUPS' };
  return { allowed: true, why: 'allowed by OIDC_ALLOWED_DOMAINS / OIDC_REQUIRED_GROUPS' };
}
