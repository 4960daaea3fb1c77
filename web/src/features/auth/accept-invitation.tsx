import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ErrorNote, Field, Spinner, formatDateTime } from '../../ui/index.ts';
import { invitationQuery } from './api.ts';
import { AuthFrame, tokenOf, useSessionForm } from './auth-frame.tsx';

export function AcceptInvitation() {
  const [token] = useState(tokenOf);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const form = useSessionForm();
  const lookup = useQuery(invitationQuery(token));
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
