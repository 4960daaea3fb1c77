import { createContext, useContext, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { setCsrfToken } from '../../lib/http.ts';
import { sessionKeys, sessionQuery, type SessionPayload } from './api.ts';

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
  const query = useQuery(sessionQuery);
  const state: SessionState = {
    session: query.data ?? null,
    loading: query.isPending,
    error: query.error,
    signedIn(payload) {
      setCsrfToken(payload.csrf_token);
      client.setQueryData(sessionKeys.current, payload);
    },
    signedOut() {
      setCsrfToken(null);
      // The session query keeps its observer (clearing the whole cache would strand it on the old
      // payload); everything else belonged to the person who signed out.
      client.setQueryData(sessionKeys.current, null);
      client.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKeys.current[0] });
    },
  };
  return <SessionContext.Provider value={state}>{children}</SessionContext.Provider>;
}
