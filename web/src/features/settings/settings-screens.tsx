import { useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { createServiceAccount, peopleKeys, updatePerson } from '../people/api.ts';
import { usePeople } from '../people/use-people.ts';
import { useMe, useSession } from '../session/session-provider.tsx';
import { ErrorNote, Field, Form, SecretNote, Spinner, Table, formatDateTime, useNotify } from '../../ui/index.ts';
import { Webhooks } from '../webhooks/webhooks-section.tsx';
import {
  cancelInvitation,
  changePassword,
  createToken,
  invitationsQuery,
  invite as sendInvitation,
  markNoticeRead,
  notificationsQuery,
  renameMe,
  revokeSession,
  revokeToken,
  sessionsQuery,
  settingsKeys,
  tokensQuery,
  type Invitation,
} from './api.ts';

const ROLES = ['owner', 'admin', 'member', 'guest'] as const;
const SCOPES = ['tasks', 'projects', 'standups', 'workflows', 'customfields', 'webhooks'];

function SettingsFrame({ current, children }: { current: 'profile' | 'organization'; children: ReactNode }) {
  const me = useMe();
  const admin = me.user.role === 'owner' || me.user.role === 'admin';
  return (
    <section className="page" aria-labelledby="settings-title">
      <header className="screen-head">
        <h1 id="settings-title">Settings</h1>
        <nav className="tabs" aria-label="Settings">
          <Link href="/settings/profile" aria-current={current === 'profile' ? 'page' : undefined}>
            Profile
          </Link>
          {admin ? (
            <Link href="/settings/organization" aria-current={current === 'organization' ? 'page' : undefined}>
              Organization
            </Link>
          ) : null}
        </nav>
      </header>
      {children}
    </section>
  );
}

export function Profile() {
  const me = useMe();
  const { signedIn, session } = useSession();
  const client = useQueryClient();
  const notify = useNotify();
  const [name, setName] = useState(me.user.name);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const rename = useMutation({
    mutationFn: () => renameMe(name),
    meta: { quiet: true },
    onSuccess: () => {
      if (session) signedIn({ ...session, user: { ...session.user, name } });
      notify({ kind: 'info', message: 'Name saved.' });
    },
  });
  const password = useMutation({
    mutationFn: () => changePassword(current, next),
    meta: { quiet: true },
    onSuccess: () => {
      setCurrent('');
      setNext('');
      notify({ kind: 'info', message: 'Password changed.' });
    },
  });
  const sessions = useQuery(sessionsQuery);
  const revoke = useMutation({
    mutationFn: revokeSession,
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.sessions }),
  });
  return (
    <SettingsFrame current="profile">
      <h2>Profile</h2>
      <p>
        {me.user.email} · {me.user.role} in {me.organization.name}
      </p>
      <Form className="inline-form" onSubmit={() => rename.mutate()}>
        <Field label="Name">
          {(id) => <input id={id} required value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <button type="submit">Save name</button>
      </Form>
      <ErrorNote error={rename.error} />
      <h2>Password</h2>
      <Form className="inline-form" onSubmit={() => password.mutate()}>
        <Field label="Current password">
          {(id) => (
            <input
              id={id}
              type="password"
              autoComplete="current-password"
              required
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
            />
          )}
        </Field>
        <Field label="New password" hint="At least 10 characters.">
          {(id) => (
            <input
              id={id}
              type="password"
              autoComplete="new-password"
              minLength={10}
              required
              value={next}
              onChange={(e) => setNext(e.target.value)}
            />
          )}
        </Field>
        <button type="submit">Change password</button>
      </Form>
      <ErrorNote error={password.error} />
      <h2>Sessions</h2>
      <ErrorNote error={sessions.error ?? revoke.error} />
      {sessions.isPending ? <Spinner /> : null}
      <Table columns={['Browser', 'Address', 'Signed in', 'Last seen']} actions>
        {sessions.data?.map((s) => (
          <tr key={s.id}>
            <td>
              {s.user_agent ?? 'Unknown'} {s.current ? <strong>(this one)</strong> : null}
            </td>
            <td>{s.ip ?? ''}</td>
            <td>{formatDateTime(s.created_at)}</td>
            <td>{formatDateTime(s.last_seen_at)}</td>
            <td>
              {!s.current ? (
                <button type="button" onClick={() => revoke.mutate(s.id)}>
                  Revoke
                </button>
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
    </SettingsFrame>
  );
}

export function Organization() {
  return (
    <SettingsFrame current="organization">
      <People />
      <Invitations />
      <Tokens />
      <Webhooks />
      <Notifications />
    </SettingsFrame>
  );
}

function People() {
  const client = useQueryClient();
  const people = usePeople();
  const change = useMutation({
    mutationFn: ({ id, body }: { id: number; body: { role?: string; active?: boolean } }) => updatePerson(id, body),
    meta: { quiet: true },
    onSettled: () => client.invalidateQueries({ queryKey: peopleKeys.all }),
  });
  const [serviceName, setServiceName] = useState('');
  const service = useMutation({
    mutationFn: () => createServiceAccount(serviceName),
    meta: { quiet: true },
    onSuccess: () => {
      setServiceName('');
      void client.invalidateQueries({ queryKey: peopleKeys.all });
    },
  });
  return (
    <section aria-labelledby="people-title">
      <h2 id="people-title">People and service accounts</h2>
      <ErrorNote error={people.error ?? change.error} />
      <Table columns={['Name', 'E-mail', 'Kind', 'Role', 'Active']}>
        {people.data?.map((p) => (
          <tr key={p.id}>
            <td>{p.name}</td>
            <td>{p.email ?? ''}</td>
            <td>{p.kind}</td>
            <td>
              <select
                aria-label={`Role of ${p.name}`}
                value={p.role}
                onChange={(e) => change.mutate({ id: p.id, body: { role: e.target.value } })}
              >
                {ROLES.map((r) => (
                  <option key={r}>{r}</option>
                ))}
              </select>
            </td>
            <td>
              <input
                type="checkbox"
                aria-label={`${p.name} is active`}
                checked={p.active}
                onChange={(e) => change.mutate({ id: p.id, body: { active: e.target.checked } })}
              />
            </td>
          </tr>
        ))}
      </Table>
      <Form className="inline-form" onSubmit={() => service.mutate()}>
        <Field label="New service account">
          {(id) => <input id={id} required value={serviceName} onChange={(e) => setServiceName(e.target.value)} />}
        </Field>
        <button type="submit">Create service account</button>
      </Form>
      <ErrorNote error={service.error} />
    </section>
  );
}

function Invitations() {
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  const [created, setCreated] = useState<Invitation | null>(null);
  const list = useQuery(invitationsQuery);
  const invite = useMutation({
    mutationFn: () => sendInvitation({ email, role }),
    meta: { quiet: true },
    onSuccess: (inv) => {
      setCreated(inv);
      setEmail('');
      void client.invalidateQueries({ queryKey: settingsKeys.invitations });
    },
  });
  const cancel = useMutation({
    mutationFn: cancelInvitation,
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.invitations }),
  });
  return (
    <section aria-labelledby="invitations-title">
      <h2 id="invitations-title">Invitations</h2>
      <Form className="inline-form" onSubmit={() => invite.mutate()}>
        <Field label="E-mail">
          {(id) => <input id={id} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}
        </Field>
        <Field label="Role">
          {(id) => (
            <select id={id} value={role} onChange={(e) => setRole(e.target.value)}>
              {ROLES.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit">Invite</button>
      </Form>
      <ErrorNote error={invite.error ?? list.error ?? cancel.error} />
      {created?.url ? (
        <SecretNote>
          Invitation link for {created.email} (shown once): <code>{created.url}</code>
        </SecretNote>
      ) : null}
      <ul className="plain">
        {list.data?.map((inv) => (
          <li key={inv.id}>
            {inv.email} as {inv.role}, expires {formatDateTime(inv.expires_at)}{' '}
            <button type="button" className="link" onClick={() => cancel.mutate(inv.id)}>
              Cancel invitation for {inv.email}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Tokens() {
  const client = useQueryClient();
  const notify = useNotify();
  const tokens = useQuery(tokensQuery);
  const revoke = useMutation({
    mutationFn: revokeToken,
    onSuccess: () => {
      notify({ kind: 'info', message: 'Token revoked.' });
      void client.invalidateQueries({ queryKey: settingsKeys.tokens });
    },
  });
  return (
    <section aria-labelledby="tokens-title">
      <h2 id="tokens-title">API tokens</h2>
      <ErrorNote error={tokens.error ?? revoke.error} />
      <Table columns={['Name', 'Account', 'Scopes', 'Projects', 'Created', 'Expires', 'Last used']} actions>
        {tokens.data?.map((t) => (
          <tr key={t.id}>
            <td>{t.name}</td>
            <td>{t.account.name}</td>
            <td>{t.scopes.join(' ')}</td>
            <td>{t.projects ? t.projects.join(', ') : 'All'}</td>
            <td>{formatDateTime(t.created_at)}</td>
            <td>{t.expires_at ? formatDateTime(t.expires_at) : 'Never'}</td>
            <td>{t.last_used_at ? formatDateTime(t.last_used_at) : 'Never'}</td>
            <td>
              <button type="button" onClick={() => revoke.mutate(t.id)}>
                Revoke {t.name}
              </button>
            </td>
          </tr>
        ))}
      </Table>
      <NewToken />
    </section>
  );
}

/** A token for a service account with the scopes ticked; its secret is shown once, under the form. */
function NewToken() {
  const client = useQueryClient();
  const people = usePeople();
  const services = people.data?.filter((p) => p.kind === 'service' && p.active) ?? [];
  const [name, setName] = useState('');
  const [account, setAccount] = useState('');
  const [scopes, setScopes] = useState<string[]>(['tasks:read']);
  const [secret, setSecret] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => createToken({ name, account: Number(account || services[0]?.id), scopes }),
    meta: { quiet: true },
    onSuccess: (row) => {
      setSecret(row.token ?? null);
      setName('');
      void client.invalidateQueries({ queryKey: settingsKeys.tokens });
    },
  });
  const toggleScope = (scope: string) =>
    setScopes((list) => (list.includes(scope) ? list.filter((s) => s !== scope) : [...list, scope]));
  return (
    <>
      <h3>New token</h3>
      <Form className="stack" onSubmit={() => create.mutate()}>
        <div className="inline-form">
          <Field label="Token name">
            {(id) => <input id={id} required value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <Field label="Service account">
            {(id) => (
              <select id={id} required value={account} onChange={(e) => setAccount(e.target.value)}>
                {services.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <fieldset className="scopes">
          <legend>Scopes</legend>
          {SCOPES.flatMap((s) => [`${s}:read`, `${s}:write`]).map((scope) => (
            <label key={scope} className="check">
              <input type="checkbox" checked={scopes.includes(scope)} onChange={() => toggleScope(scope)} /> {scope}
            </label>
          ))}
        </fieldset>
        <ErrorNote error={create.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={!services.length}>
            Create token
          </button>
          {!services.length ? <span className="muted">Create a service account first.</span> : null}
        </div>
      </Form>
      {secret ? (
        <SecretNote>
          The new token (shown once, copy it now): <code>{secret}</code>
        </SecretNote>
      ) : null}
    </>
  );
}

/** Operator notices, such as a webhook endpoint disabled after failing deliveries. */
function Notifications() {
  const client = useQueryClient();
  const list = useQuery(notificationsQuery);
  const read = useMutation({
    mutationFn: markNoticeRead,
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.notifications }),
  });
  return (
    <section aria-labelledby="notifications-title">
      <h2 id="notifications-title">Notifications</h2>
      <ErrorNote error={list.error} />
      {list.data?.length === 0 ? <p className="muted">Nothing to report.</p> : null}
      <ul className="plain">
        {list.data?.map((n) => (
          <li key={n.id} className={n.read_at ? 'muted' : undefined}>
            {formatDateTime(n.created_at)}: {n.message}{' '}
            {!n.read_at ? (
              <button type="button" className="link" onClick={() => read.mutate(n.id)}>
                Mark as read
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
