import { queryOptions } from '@tanstack/react-query';
import { call, get, put } from '../../lib/http.ts';

/** Whether people can sign in with the organization's identity provider (docs/operating/oidc.md). */
export interface OidcInfo {
  enabled: boolean;
  name: string | null;
  password_sign_in: boolean;
  provider_sign_out: boolean;
}

export interface OidcTestResult {
  id: number;
  created_at: string;
  ok: boolean;
  error: string | null;
  claims: Record<string, unknown> | null;
  plan: {
    outcome: 'signed_in' | 'linked' | 'created' | 'refused';
    refusal: string | null;
    message: string;
    organization?: string;
    groups?: string[];
    role?: { from: string | null; to: string; keptLastOwner: boolean };
    projects?: Array<{ project: string; from: string | null; to: string | null }>;
    missing_projects?: string[];
  } | null;
}

export const oidcInfoQuery = queryOptions({
  queryKey: ['oidc'] as const,
  queryFn: () => get<OidcInfo>('/api/console/oidc/'),
  staleTime: 60_000,
  retry: false,
});

export const oidcTestQuery = (id: string) =>
  queryOptions({
    queryKey: ['oidc-test', id] as const,
    queryFn: () => get<OidcTestResult>(`/api/console/oidc/test/${encodeURIComponent(id)}/`),
    retry: false,
  });

/** Starts a sign-in at the provider: a full page load, since the browser leaves for the provider. */
export const startUrl = (next: string | null) =>
  `/api/console/oidc/start/${next && next.startsWith('/') && !next.startsWith('//') ? `?next=${encodeURIComponent(next)}` : ''}`;

const SIGNED_OUT = 'tt:signed-out';

/** Sign-out marks the tab, so the sign-in screen can offer to sign out at the provider too. */
export const rememberSignOut = () => sessionStorage.setItem(SIGNED_OUT, '1');
export const justSignedOut = () => sessionStorage.getItem(SIGNED_OUT) === '1';
export const forgetSignOut = () => sessionStorage.removeItem(SIGNED_OUT);

/** Groups to roles (docs/operating/oidc.md): the environment's, or the one saved in Settings → Sign-in. */
export interface GroupMapping {
  source: 'environment' | 'settings';
  groups_claim: string;
  roles: Array<{ group: string; role: string }>;
  projects: Array<{ group: string; project: string; role: string }>;
  updated_at: string | null;
  updated_by: { id: number; name: string } | null;
}

export type GroupMappingInput = Pick<GroupMapping, 'groups_claim' | 'roles' | 'projects'>;

export const mappingQuery = queryOptions({
  queryKey: ['oidc', 'mapping'] as const,
  queryFn: () => get<GroupMapping>('/api/console/oidc/mapping/'),
});
export const saveMapping = (body: GroupMappingInput) => put<GroupMapping>('/api/console/oidc/mapping/', body);
export const removeMapping = async () =>
  (await call<GroupMapping>('/api/console/oidc/mapping/', { method: 'DELETE' })).data;
