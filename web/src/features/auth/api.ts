import { queryOptions } from '@tanstack/react-query';
import { call, get } from '../../lib/http.ts';

export interface InvitationLookup {
  email: string;
  role: string;
  organization: { name: string };
  expires_at: string;
}

export const authKeys = {
  setupNeeded: ['setup-needed'] as const,
  invitation: (token: string) => ['invitation', token] as const,
};

/** Whether the service still waits for its first organization. */
export const setupNeededQuery = queryOptions({
  queryKey: authKeys.setupNeeded,
  queryFn: () => get<{ needed: boolean }>('/api/console/setup/'),
  retry: false,
});

/** What an invitation link offers, before the person accepts it. */
export const invitationQuery = (token: string) =>
  queryOptions({
    queryKey: authKeys.invitation(token),
    queryFn: () => get<InvitationLookup>(`/api/console/invitations/lookup/?token=${encodeURIComponent(token)}`),
    enabled: Boolean(token),
    retry: false,
  });

export const requestPasswordReset = (email: string) =>
  call('/api/console/password-resets/', { method: 'POST', body: { email }, quiet401: true });
