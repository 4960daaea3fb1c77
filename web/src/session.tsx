import { createContext, useContext, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, call, setCsrfToken, type SessionPayload } from './api.ts';

interface SessionState {
  session: SessionPayload | null;
  loading: boolean;
  error: unknown;
  /** Stores the payload a sign-in, setup, accept or reset answered. */
  signedIn(payload: SessionPayload): void;
  signedOut(): void;
}

const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}

/** The signed-in person; only rendered inside the signed-in shell. */
export function useMe(): SessionPayload {
  const { session } = useSession();
  if (!session) throw new Error('useMe without a session');
  return session;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: ['session'],
    queryFn: async () => {
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
  const state: SessionState = {
    session: query.data ?? null,
    loading: query.isPending,
    error: query.error,
    signedIn(payload) {
      setCsrfToken(payload.csrf_token);
      client.setQueryData(['session'], payload);
    },
    signedOut() {
      setCsrfToken(null);
      // The session query keeps its observer (clearing the whole cache would strand it on the old
      // payload); everything else belonged to the person who signed out.
      client.setQueryData(['session'], null);
      client.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
    },
  };
  return <SessionContext.Provider value={state}>{children}</SessionContext.Provider>;
}
