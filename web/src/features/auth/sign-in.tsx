import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ErrorNote, Field } from '../../ui/index.ts';
import { setupNeededQuery } from './api.ts';
import { AuthFrame, useSessionForm } from './auth-frame.tsx';

export function SignIn() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useSessionForm();
  const setup = useQuery(setupNeededQuery);
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
