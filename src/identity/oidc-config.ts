import type { ProjectRole, WorkspaceRole } from '../db/schema.ts';

/**
 * OpenID Connect sign-in settings, read from OIDC_* variables (docs/operating/oidc.md). Absent
 * unless OIDC_ISSUER is set; every mistake is refused at start with the variable's name, so a
 * misconfigured deployment does not fail later at someone's sign-in.
 */
export interface OidcConfig {
  /** The provider's issuer identifier; its discovery document is read from it. */
  issuer: string;
  clientId: string;
  /** Null: a public client (PKCE only, no client authentication). */
  clientSecret: string | null;
  /** Shown on the button: "Sign in with <name>". */
  name: string;
  /** The organization people sign in to (its slug); null: the only one there is. */
  organization: string | null;
  scopes: string[];
  /** New people are created only if their verified e-mail's domain is listed here (when any is)... */
  allowedDomains: string[];
  /** ...and they are in one of these groups (when any is). With neither, nobody new is created. */
  requiredGroups: string[];
  groupsClaim: string;
  roleMap: RoleMapping[];
  projectMap: ProjectMapping[];
  /** The workspace role of a new person no mapping gives one, and of one the mapping takes a role from. */
  defaultRole: Exclude<WorkspaceRole, 'owner'>;
  /** Off: only owners may sign in with a password (the local fallback); everyone else uses the provider. */
  passwordSignIn: boolean;
  /** Leeway for the ID token's time claims against our clock. */
  clockToleranceSeconds: number;
}

export interface RoleMapping {
  group: string;
  role: WorkspaceRole;
}

export interface ProjectMapping {
  group: string;
  project: string;
  role: ProjectRole;
}

const WORKSPACE_ROLES: WorkspaceRole[] = ['owner', 'admin', 'member', 'guest'];
const PROJECT_ROLES: ProjectRole[] = ['admin', 'member', 'viewer'];

const list = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** `group=value` pairs separated by commas; the last `=` splits, so a group name may hold one. */
function pairs(env: NodeJS.ProcessEnv, name: string, example: string): Array<[string, string]> {
  return list(env[name]).map((item) => {
    const at = item.lastIndexOf('=');
    if (at <= 0 || at === item.length - 1)
      throw new Error(`${name} must list group=value pairs separated by commas (e.g. ${example}), got "${item}"`);
    return [item.slice(0, at).trim(), item.slice(at + 1).trim()];
  });
}

function roleMapFrom(env: NodeJS.ProcessEnv): RoleMapping[] {
  return pairs(env, 'OIDC_ROLE_MAP', 'tt-admins=admin,staff=member').map(([group, role]) => {
    if (!WORKSPACE_ROLES.includes(role as WorkspaceRole))
      throw new Error(`OIDC_ROLE_MAP: "${role}" is not a workspace role (${WORKSPACE_ROLES.join(', ')})`);
    return { group, role: role as WorkspaceRole };
  });
}

function projectMapFrom(env: NodeJS.ProcessEnv): ProjectMapping[] {
  return pairs(env, 'OIDC_PROJECT_MAP', 'web-team=WEB:member').map(([group, value]) => {
    const match = /^([A-Z][A-Z0-9]*):([a-z]+)$/.exec(value);
    if (!match || !PROJECT_ROLES.includes(match[2] as ProjectRole))
      throw new Error(
        `OIDC_PROJECT_MAP: "${value}" must be PROJECTKEY:role with a project role (${PROJECT_ROLES.join(', ')}), e.g. WEB:member`,
      );
    return { group, project: match[1]!, role: match[2] as ProjectRole };
  });
}

function issuerFrom(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(
      `OIDC_ISSUER must be the provider's issuer URL (e.g. https://sso.example.com/realms/acme), got "${raw}"`,
    );
  }
  // Plain http only to a provider on this machine (development and tests).
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw new Error(`OIDC_ISSUER must be an https URL (http only on loopback), got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '') return fallback;
  if (['on', 'true', 'yes', '1'].includes(raw)) return true;
  if (['off', 'false', 'no', '0'].includes(raw)) return false;
  throw new Error(`${name} must be on or off, got "${env[name]}"`);
}

/** OIDC_* variables, or null when OIDC_ISSUER is not set (then no other OIDC_* variable may be). */
export function oidcConfigFrom(env: NodeJS.ProcessEnv, publicBaseUrl: string | null): OidcConfig | null {
  if (!env.OIDC_ISSUER) {
    const stray = Object.keys(env).find((key) => key.startsWith('OIDC_') && env[key]);
    if (stray) throw new Error(`${stray} is set but OIDC_ISSUER is not: set OIDC_ISSUER to use OpenID Connect sign-in`);
    return null;
  }
  if (!env.OIDC_CLIENT_ID) throw new Error('OIDC_ISSUER is set: OIDC_CLIENT_ID must be set too');
  // The redirect URI registered at the provider must not depend on how a request reached us.
  if (!publicBaseUrl)
    throw new Error('OIDC_ISSUER is set: PUBLIC_BASE_URL must be set too (the redirect URI is built from it)');
  const defaultRole = (env.OIDC_DEFAULT_ROLE || 'member').trim();
  if (!['admin', 'member', 'guest'].includes(defaultRole))
    throw new Error(`OIDC_DEFAULT_ROLE must be admin, member or guest, got "${defaultRole}"`);
  const tolerance = env.OIDC_CLOCK_TOLERANCE_SECONDS ?? '';
  if (tolerance !== '' && !/^\d{1,4}$/.test(tolerance))
    throw new Error(`OIDC_CLOCK_TOLERANCE_SECONDS must be a number of seconds (0-9999), got "${tolerance}"`);
  const organization = (env.OIDC_ORGANIZATION ?? '').trim();
  if (organization && !/^[a-z0-9][a-z0-9-]{0,62}$/.test(organization))
    throw new Error(`OIDC_ORGANIZATION must be an organization's slug, got "${organization}"`);
  const groupsClaim = (env.OIDC_GROUPS_CLAIM ?? '').trim() || 'groups';
  const scopes = (env.OIDC_SCOPES ?? '').trim()
    ? (env.OIDC_SCOPES ?? '').trim().split(/\s+/)
    : ['openid', 'email', 'profile'];
  if (!scopes.includes('openid')) throw new Error(`OIDC_SCOPES must include openid, got "${env.OIDC_SCOPES}"`);
  return {
    issuer: issuerFrom(env.OIDC_ISSUER),
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET || null,
    name: (env.OIDC_NAME ?? '').trim() || 'single sign-on',
    organization: organization || null,
    scopes,
    allowedDomains: list(env.OIDC_ALLOWED_DOMAINS).map((domain) => domain.toLowerCase().replace(/^@/, '')),
    requiredGroups: list(env.OIDC_REQUIRED_GROUPS),
    groupsClaim,
    roleMap: roleMapFrom(env),
    projectMap: projectMapFrom(env),
    defaultRole: defaultRole as OidcConfig['defaultRole'],
    passwordSignIn: onOff(env, 'OIDC_PASSWORD_SIGNIN', true),
    clockToleranceSeconds: tolerance === '' ? 30 : Number(tolerance),
  };
}
