import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ErrorNote, Field } from '../../ui/index.ts';
import { forgetSignOut, justSignedOut, oidcInfoQuery, startUrl } from '../oidc/api.ts';
import { setupNeededQuery } from './api.ts';
import { AuthFrame, useSessionForm } from './auth-frame.tsx';

export function SignIn() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useSessionForm();
  const setup = useQuery(setupNeededQuery);
  const oidc = useQuery(oidcInfoQuery);
  const params = new URLSearchParams(window.location.search);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void form.submit('/api/console/sign-in/', { email, password });
  };
  const passwordForm = (
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
  );
  return (
    <AuthFrame title="Sign in">
      {setup.data?.needed ? (
        <p className="note">
          This service has no organization yet. Open the setup link that <code>tasktracker serve</code> printed to
          create it.
        </p>
      ) : null}
      {justSignedOut() && oidc.data?.provider_sign_out ? (
        <p className="note">
          You are signed out here.{' '}
          <a href="/api/console/oidc/sign-out/" onClick={forgetSignOut}>
            Also sign out of {oidc.data.name}
          </a>
        </p>
      ) : null}
      {oidc.data?.enabled ? (
        <>
          <a className="button primary sso" href={startUrl(params.get('next'))} onClick={forgetSignOut}>
            Sign in with {oidc.data.name}
          </a>
          {oidc.data.password_sign_in ? <p className="or">or with your e-mail and password</p> : null}
        </>
      ) : null}
      {oidc.data?.enabled && !oidc.data.password_sign_in ? (
        // The local owner account keeps working when the provider does not.
        <details className="owner-sign-in">
          <summary>Owner sign-in with a password</summary>
          {passwordForm}
        </details>
      ) : (
        passwordForm
      )}
      <p>
        <Link href="/reset-password">Forgot your password?</Link>
      </p>
    </AuthFrame>
  );
}
