import { queryOptions } from '@tanstack/react-query';
import { ApiError, call, post, setCsrfToken } from '../../lib/http.ts';

/** The console API's session payload (sign-in, setup, accepting an invitation, a reset). */
export interface SessionPayload {
  user: { id: number; kind: 'human'; email: string; name: string; role: string };
  organization: { id: number; slug: string; name: string };
  csrf_token: string;
  session: { id: string | number; created_at: string; expires_at: string };
}

export const sessionKeys = { current: ['session'] as const };

/** The signed-in person, or null when nobody is; its CSRF token is kept for every later write. */
export const sessionQuery = queryOptions({
  queryKey: sessionKeys.current,
  queryFn: async (): Promise<SessionPayload | null> => {
    try {
      const payload = (await call<SessionPayload>('/api/console/session/', { quiet401: true })).data;
      setCsrfToken(payload.csrf_token);
      return payload;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        setCsrfToken(null);
        return null;
      }
      throw error;
    }
  },
  staleTime: Infinity,
  retry: false,
});

export const signOut = () => post('/api/console/sign-out/');

/** Posts a form whose answer is a session payload: sign-in, setup, accepting an invitation, completing a reset. */
export async function startSession(path: string, body: unknown): Promise<SessionPayload> {
  return (await call<SessionPayload>(path, { method: 'POST', body, quiet401: true })).data;
}
