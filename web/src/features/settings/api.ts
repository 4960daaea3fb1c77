import { queryOptions } from '@tanstack/react-query';
import { del, get, patch, post } from '../../lib/http.ts';

// Shapes of the console API (`/api/console/`), which the OpenAPI document leaves out.

export interface SessionRow {
  id: string | number;
  current: boolean;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  user_agent: string | null;
  ip: string | null;
}

export interface Invitation {
  id: number;
  email: string;
  role: string;
  projects: Array<{ key: string; name: string; role: string }>;
  expires_at: string;
  url?: string;
}

export interface TokenRow {
  id: number;
  name: string;
  account: { id: number; name: string };
  scopes: string[];
  projects: string[] | null;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  token?: string;
}

export const settingsKeys = {
  sessions: ['console', 'sessions'] as const,
  invitations: ['console', 'invitations'] as const,
  tokens: ['console', 'tokens'] as const,
};

export const sessionsQuery = queryOptions({
  queryKey: settingsKeys.sessions,
  queryFn: ({ signal }) => get<SessionRow[]>('/api/console/sessions/', signal),
});
export const revokeSession = (id: string | number) => del(`/api/console/sessions/${id}/`);

export const renameMe = (name: string) => patch('/api/console/profile/', { name });
export const changePassword = (current: string, next: string) =>
  post('/api/console/profile/password/', { current_password: current, new_password: next });

export const invitationsQuery = queryOptions({
  queryKey: settingsKeys.invitations,
  queryFn: ({ signal }) => get<Invitation[]>('/api/console/invitations/', signal),
});
export const invite = (body: { email: string; role: string; projects: Array<{ project: string; role: string }> }) =>
  post<Invitation>('/api/console/invitations/', body);
export const cancelInvitation = (id: number) => del(`/api/console/invitations/${id}/`);

export const tokensQuery = queryOptions({
  queryKey: settingsKeys.tokens,
  queryFn: ({ signal }) => get<TokenRow[]>('/api/console/tokens/', signal),
});
export const createToken = (body: { name: string; account: number; scopes: string[] }) =>
  post<TokenRow>('/api/console/tokens/', body);
export const revokeToken = (id: number) => del(`/api/console/tokens/${id}/`);
