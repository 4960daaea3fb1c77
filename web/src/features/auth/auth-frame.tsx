import { useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { forgetSignOut } from '../oidc/api.ts';
import { startSession } from '../session/api.ts';
import { useSession } from '../session/session-provider.tsx';

/** The card every signed-out screen sits in. */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="auth" id="main">
      <div className="auth-card">
        <p className="brand">tasktracker</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

/** Submits a form whose answer is a session payload, then opens the app. */
export function useSessionForm() {
  const { signedIn } = useSession();
  const [, navigate] = useLocation();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (path: string, body: unknown) => {
    setBusy(true);
    setError(null);
    try {
      const payload = await startSession(path, body);
      forgetSignOut();
      signedIn(payload);
      // Back to the screen that asked for a sign-in; only a path on this site.
      const next = new URLSearchParams(window.location.search).get('next');
      navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : '/');
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, submit };
}

/** Links carry their token in the fragment (`/invite#token=...`), which never reaches a server log. */
export const tokenOf = () => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
