import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ErrorNote, Field, Spinner } from '../../ui/index.ts';
import { setupNeededQuery } from './api.ts';
import { AuthFrame, tokenOf, useSessionForm } from './auth-frame.tsx';

export function Setup() {
  const [token] = useState(tokenOf);
  const [orgName, setOrgName] = useState('');
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useSessionForm();
  const needed = useQuery(setupNeededQuery);
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
          {(id) => (
            <input
              id={id}
              required
              value={orgName}
              onChange={(e) => {
                setOrgName(e.target.value);
                if (!slugEdited) setSlug(slugFrom(e.target.value));
              }}
              autoFocus
            />
          )}
        </Field>
        <Field label="Organization slug" hint="Lower-case letters, digits and dashes.">
          {(id) => (
            <input
              id={id}
              required
              // Chromium compiles `pattern` with the `v` flag, where a bare `-` in a class is a syntax error.
              pattern="[a-z0-9][a-z0-9\-]*"
              value={slug}
              onChange={(e) => {
                setSlug(e.target.value);
                setSlugEdited(true);
              }}
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

/** "Acme Corp." → "acme-corp": lower-case letters and digits, words joined by dashes. */
export function slugFrom(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50);
}
