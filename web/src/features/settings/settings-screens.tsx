import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Redirect } from 'wouter';
import { currentDensity, setDensity, type Density } from '../../app/density.ts';
import { currentTheme, toggleTheme } from '../../app/theme.ts';
import { useProjects } from '../projects/use-project.ts';
import { createServiceAccount, peopleKeys, updatePerson } from '../people/api.ts';
import { usePeople } from '../people/use-people.ts';
import { useMe, useSession } from '../session/session-provider.tsx';
import {
  ConfirmDialog,
  ErrorNote,
  Field,
  Form,
  SecretNote,
  Spinner,
  Table,
  formatDateTime,
  useNotify,
} from '../../ui/index.ts';
import { Webhooks } from '../webhooks/webhooks-section.tsx';
import { SignInSettings } from '../oidc/sign-in-test.tsx';
import { AuditLog } from '../audit/audit-log.tsx';
import { NotificationPreferencesSection } from '../notifications/preferences-section.tsx';
import {
  cancelInvitation,
  changePassword,
  createToken,
  invitationsQuery,
  invite as sendInvitation,
  renameMe,
  revokeSession,
  revokeToken,
  sessionsQuery,
  settingsKeys,
  tokensQuery,
  type Invitation,
  type SessionRow,
  type TokenRow,
} from './api.ts';

const ROLES = ['owner', 'admin', 'member', 'guest'] as const;
const SCOPES = ['tasks', 'projects', 'standups', 'workflows', 'customfields', 'webhooks'];

/** The sections of settings, each at its own address; the organization's only for its owners and admins. */
const SECTIONS = [
  { id: 'profile', label: 'Profile', admin: false },
  { id: 'appearance', label: 'Appearance', admin: false },
  { id: 'people', label: 'People', admin: true },
  { id: 'invitations', label: 'Invitations', admin: true },
  { id: 'tokens', label: 'API tokens', admin: true },
  { id: 'webhooks', label: 'Webhooks', admin: true },
  { id: 'sign-in', label: 'Sign-in', admin: true },
  { id: 'audit', label: 'Audit log', admin: true },
  { id: 'projects', label: 'Project settings', admin: false },
] as const;
export type SettingsSection = (typeof SECTIONS)[number]['id'];

const isAdmin = (role: string) => role === 'owner' || role === 'admin';

/** Settings at `/settings/<section>` (and `/settings/webhooks/<id>` for one endpoint). */
export function Settings({ section, rest }: { section: string; rest?: string }) {
  const me = useMe();
  const admin = isAdmin(me.user.role);
  const visible = SECTIONS.filter((s) => admin || !s.admin);
  // The address before settings had sections: its first section is where it used to start.
  if (section === 'organization') return <Redirect to="/settings/people" replace />;
  // Its notices (a webhook endpoint disabled) now arrive in the inbox with every other notification.
  if (section === 'notifications') return <Redirect to="/inbox" replace />;
  const current = visible.find((s) => s.id === section);
  return (
    <section className="page settings" aria-labelledby="settings-title">
      <header className="screen-head">
        <h1 id="settings-title">Settings</h1>
      </header>
      <div className="settings-layout">
        <nav className="settings-nav" aria-label="Settings">
          {visible.map((s) => (
            <Link key={s.id} href={`/settings/${s.id}`} aria-current={s.id === section ? 'page' : undefined}>
              {s.label}
            </Link>
          ))}
        </nav>
        <div className="settings-body">
          {!current ? (
            <p>
              No settings here{SECTIONS.some((s) => s.id === section) ? ' for you' : ''}.{' '}
              <Link href="/settings/profile">Go to your profile</Link>.
            </p>
          ) : section === 'profile' ? (
            <Profile />
          ) : section === 'appearance' ? (
            <Appearance />
          ) : section === 'people' ? (
            <People />
          ) : section === 'invitations' ? (
            <Invitations />
          ) : section === 'tokens' ? (
            <Tokens />
          ) : section === 'webhooks' ? (
            <Webhooks endpoint={rest ? Number(rest) : null} />
          ) : section === 'sign-in' ? (
            <SignInSettings />
          ) : section === 'audit' ? (
            <AuditLog />
          ) : (
            <ProjectSettingsLinks />
          )}
        </div>
      </div>
    </section>
  );
}

function Profile() {
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
  const [asking, setAsking] = useState<SessionRow | null>(null);
  const revoke = useMutation({
    mutationFn: revokeSession,
    onSuccess: () => {
      setAsking(null);
      void client.invalidateQueries({ queryKey: settingsKeys.sessions });
    },
  });
  return (
    <>
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
      <NotificationPreferencesSection />
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
                <button type="button" onClick={() => setAsking(s)}>
                  Sign out this session
                </button>
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
      <ConfirmDialog
        open={asking !== null}
        title="Sign out this session?"
        confirmLabel="Sign it out"
        busy={revoke.isPending}
        onConfirm={() => asking && revoke.mutate(asking.id)}
        onClose={() => setAsking(null)}
      >
        <p>
          The browser {asking?.user_agent ?? ''} {asking?.ip ? `at ${asking.ip}` : ''} is signed out at once; whatever
          it had not saved is lost, and signing in again there needs the password.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** Theme and density, kept in this browser. */
function Appearance() {
  const [density, setShown] = useState<Density>(currentDensity);
  const [dark, setDark] = useState(() => currentTheme() === 'dark');
  const choose = (next: Density) => {
    setDensity(next);
    setShown(next);
  };
  return (
    <>
      <h2>Appearance</h2>
      <fieldset className="stack">
        <legend>Density</legend>
        <label className="check">
          <input
            type="radio"
            name="density"
            checked={density === 'comfortable'}
            onChange={() => choose('comfortable')}
          />{' '}
          Comfortable: room around every row and card
        </label>
        <label className="check">
          <input type="radio" name="density" checked={density === 'compact'} onChange={() => choose('compact')} />{' '}
          Compact: more rows and cards on one screen
        </label>
      </fieldset>
      <fieldset className="stack">
        <legend>Theme</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={dark}
            onChange={() => {
              toggleTheme();
              setDark(currentTheme() === 'dark');
            }}
          />{' '}
          Dark theme (until chosen here, it follows the system)
        </label>
      </fieldset>
    </>
  );
}

/** Each project's own settings screen, from here too. */
function ProjectSettingsLinks() {
  const projects = useProjects();
  return (
    <>
      <h2>Project settings</h2>
      <p className="muted">Statuses, workflow, labels, planning, custom fields and members live with each project.</p>
      <ErrorNote error={projects.error} />
      {projects.isPending ? <Spinner /> : null}
      {projects.data?.length === 0 ? <p>No projects yet.</p> : null}
      <ul className="plain">
        {projects.data?.map((p) => (
          <li key={p.id}>
            <Link href={`/p/${p.key}/settings`}>
              Settings of {p.name} ({p.key})
            </Link>
          </li>
        ))}
      </ul>
    </>
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

const PROJECT_ROLES = ['member', 'admin', 'viewer'] as const;
type ProjectRole = (typeof PROJECT_ROLES)[number];

/** An invitation names a role and, if chosen, projects to join with a role in each. */
function Invitations() {
  const client = useQueryClient();
  const projects = useProjects();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  const [joins, setJoins] = useState<Map<string, ProjectRole>>(new Map());
  const [created, setCreated] = useState<Invitation | null>(null);
  const [asking, setAsking] = useState<Invitation | null>(null);
  const list = useQuery(invitationsQuery);
  const invite = useMutation({
    mutationFn: () =>
      sendInvitation({ email, role, projects: [...joins].map(([project, role]) => ({ project, role })) }),
    meta: { quiet: true },
    onSuccess: (inv) => {
      setCreated(inv);
      setEmail('');
      setJoins(new Map());
      void client.invalidateQueries({ queryKey: settingsKeys.invitations });
    },
  });
  const cancel = useMutation({
    mutationFn: cancelInvitation,
    onSuccess: () => {
      setAsking(null);
      void client.invalidateQueries({ queryKey: settingsKeys.invitations });
    },
  });
  const join = (key: string, to: ProjectRole | null) =>
    setJoins((map) => {
      const next = new Map(map);
      if (to) next.set(key, to);
      else next.delete(key);
      return next;
    });
  const joined = (inv: Invitation) =>
    inv.projects.length ? `, joining ${inv.projects.map((p) => `${p.name} as ${p.role}`).join(', ')}` : '';
  return (
    <section aria-labelledby="invitations-title">
      <h2 id="invitations-title">Invitations</h2>
      <Form className="stack" label="Invite a person" onSubmit={() => invite.mutate()}>
        <div className="inline-form">
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
        </div>
        {projects.data?.length ? (
          <fieldset>
            <legend>Projects to join (optional)</legend>
            <div className="invite-projects">
              {projects.data.map((p) => (
                <div key={p.key} className="field-row">
                  <label className="check">
                    <input
                      type="checkbox"
                      checked={joins.has(p.key)}
                      onChange={(e) => join(p.key, e.target.checked ? 'member' : null)}
                    />{' '}
                    {p.name} ({p.key})
                  </label>
                  {joins.has(p.key) ? (
                    <select
                      aria-label={`Role in ${p.name}`}
                      value={joins.get(p.key)}
                      onChange={(e) => join(p.key, e.target.value as ProjectRole)}
                    >
                      {PROJECT_ROLES.map((r) => (
                        <option key={r}>{r}</option>
                      ))}
                    </select>
                  ) : null}
                </div>
              ))}
            </div>
          </fieldset>
        ) : null}
        <ErrorNote error={invite.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={invite.isPending}>
            Invite
          </button>
        </div>
      </Form>
      {created?.url ? (
        <SecretNote>
          Invitation link for {created.email}
          {joined(created)} (shown once): <code>{created.url}</code>
        </SecretNote>
      ) : null}
      <h3>Waiting to be accepted</h3>
      <ErrorNote error={list.error ?? cancel.error} />
      {list.data?.length === 0 ? <p className="muted">No open invitations.</p> : null}
      <ul className="plain">
        {list.data?.map((inv) => (
          <li key={inv.id}>
            {inv.email} as {inv.role}
            {joined(inv)}, expires {formatDateTime(inv.expires_at)}{' '}
            <button type="button" className="link" onClick={() => setAsking(inv)}>
              Cancel invitation for {inv.email}
            </button>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={asking !== null}
        title={`Cancel the invitation for ${asking?.email ?? ''}?`}
        confirmLabel="Cancel the invitation"
        busy={cancel.isPending}
        onConfirm={() => asking && cancel.mutate(asking.id)}
        onClose={() => setAsking(null)}
      >
        <p>The link sent to {asking?.email} stops working at once; to let them in later, send a new invitation.</p>
      </ConfirmDialog>
    </section>
  );
}

function Tokens() {
  const client = useQueryClient();
  const notify = useNotify();
  const tokens = useQuery(tokensQuery);
  const [asking, setAsking] = useState<TokenRow | null>(null);
  const revoke = useMutation({
    mutationFn: revokeToken,
    onSuccess: () => {
      setAsking(null);
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
              <button type="button" onClick={() => setAsking(t)}>
                Revoke {t.name}
              </button>
            </td>
          </tr>
        ))}
      </Table>
      <ConfirmDialog
        open={asking !== null}
        title={`Revoke the token ${asking?.name ? `“${asking.name}”` : `of ${asking?.account.name ?? ''}`}?`}
        confirmLabel="Revoke the token"
        busy={revoke.isPending}
        onConfirm={() => asking && revoke.mutate(asking.id)}
        onClose={() => setAsking(null)}
      >
        <p>
          Every script or integration using it stops at once: its next request, as {asking?.account.name}, is refused
          (401). Revoking cannot be undone; a new token means giving them a new secret.
        </p>
      </ConfirmDialog>
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
