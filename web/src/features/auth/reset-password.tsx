import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { ErrorNote, Field } from '../../ui/index.ts';
import { requestPasswordReset } from './api.ts';
import { AuthFrame, tokenOf, useSessionForm } from './auth-frame.tsx';

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
      await requestPasswordReset(email);
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
