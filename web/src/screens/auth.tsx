import { useState, type FormEvent, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { call, get, type SessionPayload } from '../api.ts';
import { useSession } from '../session.tsx';
import { ErrorNote, Field, Spinner, formatDateTime } from '../ui.tsx';

function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
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
function useSessionForm() {
  const { signedIn } = useSession();
  const [, navigate] = useLocation();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (path: string, body: unknown) => {
    setBusy(true);
    setError(null);
    try {
      const payload = (await call<SessionPayload>(path, { method: 'POST', body, quiet401: true })).data;
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
const tokenOf = () => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';

export function SignIn() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useSessionForm();
  const setup = useQuery({
    queryKey: ['setup-needed'],
    queryFn: () => get<{ needed: boolean }>('/api/console/setup/'),
    retry: false,
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void form.submit('/api/console/sign-in/', { email, password });
  };
  return (
    <AuthFrame title="Sign in">
      {setup.data?.needed ? (
        <p className="note">
          This service has no organization yet. Open the setup link that <code>tasktracker serve</code> printed to
          create it.
        </p>
      ) : null}
      <form onSubmit={onSubmit} className="stack">
        <Field label="E-mail">
          {(id) => (
            <input
              id={id}
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              autoFocus
            />
          )}
        </Field>
        <Field label="Password">
          {(id) => (
            <input
              id={id}
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <ErrorNote error={form.error} />
        <button type="submit" className="primary" disabled={form.busy}>
          Sign in
        </button>
      </form>
      <p>
        <Link href="/reset-password">Forgot your password?</Link>
      </p>
    </AuthFrame>
  );
}

export function Setup() {
  const [token] = useState(tokenOf);
  const [orgName, setOrgName] = useState('');
  const [slug, setSlug] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useSessionForm();
  const needed = useQuery({
    queryKey: ['setup-needed'],
    queryFn: () => get<{ needed: boolean }>('/api/console/setup/'),
    retry: false,
  });
  if (needed.isPending)
    return (
      <AuthFrame title="Set up tasktracker">
        <Spinner />
      </AuthFrame>
    );
  if (needed.data && !needed.data.needed) {
    return (
      <AuthFrame title="Already set up">
        <p>This service already has its organization.</p>
        <Link href="/sign-in">Sign in</Link>
      </AuthFrame>
    );
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void form.submit('/api/console/setup/', { token, organization: { name: orgName, slug }, name, email, password });
  };
  return (
    <AuthFrame title="Set up tasktracker">
      <ErrorNote error={needed.error} />
      <form onSubmit={onSubmit} className="stack">
        <Field label="Organization name">
          {(id) => <input id={id} required value={orgName} onChange={(e) => setOrgName(e.target.value)} autoFocus />}
        </Field>
        <Field label="Organization slug" hint="Lower-case letters, digits and dashes.">
          {(id) => (
            <input
              id={id}
              required
              pattern="[a-z0-9][a-z0-9-]*"
              value={slug}
              onChange={(e) => setSlug(e.target.value)}
            />
          )}
        </Field>
        <Field label="Your name">
          {(id) => (
            <input id={id} required autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
          )}
        </Field>
        <Field label="Your e-mail">
          {(id) => (
            <input
              id={id}
              type="email"
              required
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          )}
        </Field>
        <Field label="Password" hint="At least 10 characters.">
          {(id) => (
            <input
              id={id}
              type="password"
              required
              minLength={10}
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        {!token ? (
          <p className="error">This page needs the setup link printed by the server (it carries a token).</p>
        ) : null}
        <ErrorNote error={form.error} />
        <button type="submit" className="primary" disabled={form.busy || !token}>
          Create organization
        </button>
      </form>
    </AuthFrame>
  );
}

export function AcceptInvitation() {
  const [token] = useState(tokenOf);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const form = useSessionForm();
  const lookup = useQuery({
    queryKey: ['invitation', token],
    queryFn: () =>
      get<{ email: string; role: string; organization: { name: string }; expires_at: string }>(
        `/api/console/invitations/lookup/?token=${encodeURIComponent(token)}`,
      ),
    enabled: Boolean(token),
    retry: false,
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void form.submit('/api/console/invitations/accept/', { token, name, password });
  };
  return (
    <AuthFrame title="Join your team">
      {!token ? <p className="error">This page needs the invitation link you were sent.</p> : null}
      {lookup.isPending && token ? <Spinner /> : null}
      <ErrorNote error={lookup.error} />
      {lookup.data ? (
        <>
          <p>
            You are invited to <strong>{lookup.data.organization.name}</strong> as {lookup.data.role}, with the e-mail{' '}
            {lookup.data.email}. The link expires {formatDateTime(lookup.data.expires_at)}.
          </p>
          <form onSubmit={onSubmit} className="stack">
            <Field label="Your name">
              {(id) => (
                <input
                  id={id}
                  required
                  autoComplete="name"
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                  autoFocus
                />
              )}
            </Field>
            <Field label="Password" hint="At least 10 characters.">
              {(id) => (
                <input
                  id={id}
                  type="password"
                  required
                  minLength={10}
                  autoComplete="new-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
              )}
            </Field>
            <ErrorNote error={form.error} />
            <button type="submit" className="primary" disabled={form.busy}>
              Join
            </button>
          </form>
        </>
      ) : null}
    </AuthFrame>
  );
}

/** Asks for a reset link, or (opened from one) sets the new password. */
export function ResetPassword() {
  const [token] = useState(tokenOf);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const form = useSessionForm();
  if (token) {
    const onSubmit = (event: FormEvent) => {
      event.preventDefault();
      void form.submit('/api/console/password-resets/complete/', { token, password });
    };
    return (
      <AuthFrame title="Choose a new password">
        <form onSubmit={onSubmit} className="stack">
          <Field label="New password" hint="At least 10 characters.">
            {(id) => (
              <input
                id={id}
                type="password"
                required
                minLength={10}
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                autoFocus
              />
            )}
          </Field>
          <ErrorNote error={form.error} />
          <button type="submit" className="primary" disabled={form.busy}>
            Set password and sign in
          </button>
        </form>
      </AuthFrame>
    );
  }
  const onRequest = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await call('/api/console/password-resets/', { method: 'POST', body: { email }, quiet401: true });
      setSent(true);
    } catch (e) {
      setError(e);
    }
  };
  return (
    <AuthFrame title="Reset your password">
      {sent ? (
        <p role="status">
          If an account uses that address and the service can send mail, a reset link is on its way. Otherwise ask an
          administrator for one.
        </p>
      ) : (
        <form onSubmit={onRequest} className="stack">
          <Field label="E-mail">
            {(id) => (
              <input
                id={id}
                type="email"
                required
                autoComplete="username"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                autoFocus
              />
            )}
          </Field>
          <ErrorNote error={error} />
          <button type="submit" className="primary">
            Send reset link
          </button>
        </form>
      )}
      <p>
        <Link href="/sign-in">Back to sign in</Link>
      </p>
    </AuthFrame>
  );
}
