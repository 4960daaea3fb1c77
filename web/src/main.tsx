import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MutationCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from './app/app.tsx';
import { applyDensity } from './app/density.ts';
import { applyTheme } from './app/theme.ts';
import { boardQuery } from './features/board/api.ts';
import { projectsQuery } from './features/projects/api.ts';
import { sessionKeys } from './features/session/api.ts';
import { filtersFrom } from './features/tasks/filters.ts';
import { SessionProvider } from './features/session/session-provider.tsx';
import { ApiError, onUnauthenticated } from './lib/http.ts';
import { Notices, errorNotice, type Notice } from './ui/index.ts';
import './ui/styles.css';

applyTheme();
applyDensity();

let notify: (notice: Omit<Notice, 'id'>) => void = () => {};

declare module '@tanstack/react-query' {
  interface Register {
    /** `quiet`: the screen shows this mutation's error itself. */
    mutationMeta: { quiet?: boolean };
  }
}

const client = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // A refusal will not change on retry; only a failed connection is worth another try.
      retry: (count, error) => count < 2 && error instanceof ApiError && (error.status === 0 || error.status >= 500),
    },
  },
  // Nothing fails silently: a mutation whose screen does not show its error gets a notice.
  mutationCache: new MutationCache({
    onError: (error, _variables, _context, mutation) => {
      if (!mutation.meta?.quiet) notify(errorNotice(error));
    },
  }),
});

onUnauthenticated(() => {
  client.setQueryData(sessionKeys.current, null);
});

// A board opened by its address reads its cards and the projects alongside the session, not
// after it: the first cards then wait on one round trip instead of two in a row. Signed out,
// the read's 401 leads to the sign-in as the session's own answer would.
const opening = /^\/p\/([^/]+)\/board$/.exec(window.location.pathname);
if (opening) {
  void client.prefetchQuery(boardQuery(decodeURIComponent(opening[1]!), filtersFrom(window.location.search)));
  void client.prefetchQuery(projectsQuery);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <Notices bind={(n) => (notify = n)}>
        <SessionProvider>
          <App />
        </SessionProvider>
      </Notices>
    </QueryClientProvider>
  </StrictMode>,
);
