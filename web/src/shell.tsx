import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { call, get, post, qs, type Task } from './api.ts';
import { keys, useProjects } from './data.ts';
import { LiveBanner, useLiveUpdates } from './live.tsx';
import { useSession } from './session.tsx';
import { Dialog, ErrorNote, Field, Spinner } from './ui.tsx';
import { Board } from './screens/board.tsx';
import { ListView } from './screens/list.tsx';
import { MyWork } from './screens/mywork.tsx';
import { ProjectSettings } from './screens/project-settings.tsx';
import { Projects } from './screens/projects.tsx';
import { Organization, Profile } from './screens/settings.tsx';
import { Standups } from './screens/standups.tsx';
import { TaskScreen } from './screens/task.tsx';
import { AcceptInvitation, ResetPassword, SignIn, Setup } from './screens/auth.tsx';

const LAST_PROJECT = 'tt:last-project';

export function App() {
  const { session, loading, error } = useSession();
  const [location] = useLocation();
  if (loading) return <Spinner label="Starting" />;
  return (
    <Switch>
      <Route path="/setup" component={Setup} />
      <Route path="/invite" component={AcceptInvitation} />
      <Route path="/reset-password" component={ResetPassword} />
      <Route path="/sign-in">{session ? <Redirect to="/" /> : <SignIn />}</Route>
      <Route>
        {session ? (
          <SignedIn />
        ) : error ? (
          <main className="auth" id="main">
            <ErrorNote error={error} title="The service could not be reached" />
          </main>
        ) : (
          <Redirect to={`/sign-in${location !== '/' ? qs({ next: location }) : ''}`} />
        )}
      </Route>
    </Switch>
  );
}

function SignedIn() {
  const [searchOpen, setSearchOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [newTask, setNewTask] = useState<string | null>(null);
  const [location] = useLocation();
  useShortcuts({
    search: () => setSearchOpen(true),
    help: () => setHelpOpen(true),
    create: () => setNewTask(projectFromPath(location) ?? ''),
  });
  useEffect(() => {
    const onNew = (event: Event) => setNewTask((event as CustomEvent<string>).detail ?? '');
    window.addEventListener('tt:new-task', onNew);
    return () => window.removeEventListener('tt:new-task', onNew);
  }, []);
  const live = useLiveUpdates();
  const project = projectFromPath(location);
  useEffect(() => {
    if (project) localStorage.setItem(LAST_PROJECT, project);
  }, [project]);
  return (
    <div className="shell">
      <a href="#main" className="skip">
        Skip to content
      </a>
      <TopBar onSearch={() => setSearchOpen(true)} onHelp={() => setHelpOpen(true)} />
      <OfflineBanner />
      <LiveBanner state={live} />
      <main id="main" tabIndex={-1}>
        <Switch>
          <Route path="/">
            <Home />
          </Route>
          <Route path="/projects" component={Projects} />
          <Route path="/p/:key/board">{(params) => <Board key={params.key} projectKey={params.key} />}</Route>
          <Route path="/p/:key/list">{(params) => <ListView key={params.key} projectKey={params.key} />}</Route>
          <Route path="/p/:key/settings">
            {(params) => <ProjectSettings key={params.key} projectKey={params.key} />}
          </Route>
          <Route path="/t/:key">{(params) => <TaskScreen key={params.key} taskKey={params.key} />}</Route>
          <Route path="/my-work" component={MyWork} />
          <Route path="/standups" component={Standups} />
          <Route path="/settings/profile" component={Profile} />
          <Route path="/settings/organization" component={Organization} />
          <Route>
            <section className="page">
              <h1>Not found</h1>
              <p>
                Nothing lives at this address. <Link href="/projects">Go to projects</Link>.
              </p>
            </section>
          </Route>
        </Switch>
      </main>
      <SearchDialog open={searchOpen} onClose={() => setSearchOpen(false)} />
      <HelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
      <NewTaskDialog projectKey={newTask} onClose={() => setNewTask(null)} />
    </div>
  );
}

function projectFromPath(path: string): string | null {
  const board = /^\/p\/([^/]+)/.exec(path);
  if (board) return board[1]!;
  const task = /^\/t\/([A-Z][A-Z0-9]*)-\d+/.exec(path);
  return task ? task[1]! : null;
}

/** `/` opens the last project's board, or the project list. */
function Home() {
  const projects = useProjects();
  if (projects.isPending) return <Spinner />;
  const last = localStorage.getItem(LAST_PROJECT);
  const target = projects.data?.find((p) => p.key === last) ?? projects.data?.[0];
  return <Redirect to={target ? `/p/${target.key}/board` : '/projects'} replace />;
}

function TopBar({ onSearch, onHelp }: { onSearch: () => void; onHelp: () => void }) {
  const { session, signedOut } = useSession();
  const [location, navigate] = useLocation();
  const projects = useProjects();
  const current = projectFromPath(location);
  const signOut = useMutation({
    mutationFn: () => post('/api/console/sign-out/'),
    onSuccess: () => {
      signedOut();
      navigate('/sign-in');
    },
  });
  const admin = session?.user.role === 'owner' || session?.user.role === 'admin';
  return (
    <header className="topbar">
      <Link href="/" className="brand">
        tasktracker
      </Link>
      <label className="project-switch">
        <span className="sr-only">Project</span>
        <select
          value={current ?? ''}
          onChange={(e) => (e.target.value === '' ? navigate('/projects') : navigate(`/p/${e.target.value}/board`))}
        >
          <option value="">All projects</option>
          {projects.data?.map((p) => (
            <option key={p.id} value={p.key}>
              {p.name} ({p.key})
            </option>
          ))}
        </select>
      </label>
      <nav aria-label="Main" className="mainnav">
        <Link href="/my-work" aria-current={location === '/my-work' ? 'page' : undefined}>
          My work
        </Link>
        <Link href="/standups" aria-current={location === '/standups' ? 'page' : undefined}>
          Standups
        </Link>
        <Link href="/projects" aria-current={location === '/projects' ? 'page' : undefined}>
          Projects
        </Link>
        <Link
          href={admin ? '/settings/organization' : '/settings/profile'}
          aria-current={location.startsWith('/settings') ? 'page' : undefined}
        >
          Settings
        </Link>
      </nav>
      <div className="topbar-actions">
        <button type="button" onClick={onSearch}>
          Search <kbd>/</kbd>
        </button>
        <button type="button" onClick={onHelp} aria-label="Keyboard shortcuts">
          <kbd>?</kbd>
        </button>
        <Link href="/settings/profile" className="who">
          {session?.user.name}
        </Link>
        <button type="button" onClick={() => signOut.mutate()}>
          Sign out
        </button>
      </div>
    </header>
  );
}

function OfflineBanner() {
  const [online, setOnline] = useState(navigator.onLine);
  const client = useQueryClient();
  useEffect(() => {
    const up = () => {
      setOnline(true);
      void client.invalidateQueries();
    };
    const down = () => setOnline(false);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    return () => {
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
    };
  }, [client]);
  if (online) return null;
  return (
    <div className="offline" role="status">
      You are offline. What you see may be out of date; changes will fail until the connection is back.
    </div>
  );
}

/** True when a key press belongs to a text field, not to the app's shortcuts. */
function typing(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  if (!target) return false;
  return (
    target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    Boolean(target.closest('dialog'))
  );
}

function useShortcuts(actions: { search: () => void; help: () => void; create: () => void }) {
  const ref = useRef(actions);
  ref.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typing(event)) return;
      if (document.querySelector('[aria-roledescription="card"][aria-pressed="true"]')) return;
      const nav = () => [...document.querySelectorAll<HTMLElement>('main [data-nav-item]')];
      switch (event.key) {
        case '/':
          event.preventDefault();
          ref.current.search();
          break;
        case '?':
          event.preventDefault();
          ref.current.help();
          break;
        case 'c':
          event.preventDefault();
          ref.current.create();
          break;
        case 'e':
          window.dispatchEvent(new Event('tt:edit'));
          break;
        case 'j':
        case 'k': {
          const items = nav();
          if (!items.length) return;
          event.preventDefault();
          const at = items.indexOf(document.activeElement as HTMLElement);
          const next = at < 0 ? 0 : Math.min(items.length - 1, Math.max(0, at + (event.key === 'j' ? 1 : -1)));
          items[next]!.focus();
          items[next]!.scrollIntoView({ block: 'nearest', inline: 'nearest' });
          break;
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

function SearchDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [q, setQ] = useState('');
  const [debounced, setDebounced] = useState('');
  const [at, setAt] = useState(0);
  const [, navigate] = useLocation();
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(q.trim()), 150);
    return () => clearTimeout(timer);
  }, [q]);
  const results = useQuery({
    queryKey: ['search', debounced],
    enabled: open && debounced.length > 0,
    queryFn: ({ signal }) => get<Task[]>(`/api/v1/search/${qs({ q: debounced, limit: 20 })}`, signal),
  });
  const items = results.data ?? [];
  const choose = (task: Task | undefined) => {
    if (!task) return;
    onClose();
    setQ('');
    navigate(`/t/${task.key}`);
  };
  return (
    <Dialog open={open} onClose={onClose} title="Search">
      <div className="search">
        <input
          type="search"
          aria-label="Search tasks"
          role="combobox"
          aria-expanded={items.length > 0}
          aria-controls="search-results"
          aria-activedescendant={items[at] ? `result-${items[at].key}` : undefined}
          placeholder="Words from a title or description, or a key"
          value={q}
          autoFocus
          onChange={(e) => {
            setQ(e.target.value);
            setAt(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setAt(Math.min(items.length - 1, at + 1));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setAt(Math.max(0, at - 1));
            } else if (e.key === 'Enter') {
              e.preventDefault();
              choose(items[at]);
            }
          }}
        />
        <ErrorNote error={results.error} />
        <ul id="search-results" role="listbox" aria-label="Results" className="results">
          {items.map((task, i) => (
            <li
              key={task.key}
              id={`result-${task.key}`}
              role="option"
              aria-selected={i === at}
              onClick={() => choose(task)}
              onMouseEnter={() => setAt(i)}
            >
              <span className="key">{task.key}</span> {task.title} <span className="chip">{task.status}</span>
            </li>
          ))}
        </ul>
        {debounced && results.isSuccess && !items.length ? <p className="muted">No task matches.</p> : null}
      </div>
    </Dialog>
  );
}

const SHORTCUTS: Array<[string, string]> = [
  ['c', 'New task'],
  ['/', 'Search'],
  ['j / k', 'Next / previous item'],
  ['Enter', 'Open the focused task'],
  ['e', 'Edit the open task'],
  ['Space', 'Pick up or drop the focused card; arrows move it between columns, Escape cancels'],
  ['?', 'This list'],
];

function HelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Keyboard shortcuts">
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map(([key, what]) => (
            <tr key={key}>
              <th scope="row">
                <kbd>{key}</kbd>
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}

function NewTaskDialog({ projectKey, onClose }: { projectKey: string | null; onClose: () => void }) {
  const projects = useProjects();
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [project, setProject] = useState('');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  useEffect(() => {
    if (projectKey !== null) setProject(projectKey || projects.data?.[0]?.key || '');
  }, [projectKey, projects.data]);
  const create = useMutation({
    mutationFn: () =>
      call<Task>(`/api/v1/projects/${project}/tasks/`, { method: 'POST', body: { title, description } }),
    meta: { quiet: true },
    onSuccess: ({ data }) => {
      void client.invalidateQueries({ queryKey: keys.tasks(data.project) });
      setTitle('');
      setDescription('');
      onClose();
      window.dispatchEvent(new CustomEvent('tt:created', { detail: data.key }));
      navigate(`/p/${data.project}/board`);
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Dialog open={projectKey !== null} onClose={onClose} title="New task">
      <form className="stack" onSubmit={onSubmit}>
        <Field label="Project">
          {(id) => (
            <select id={id} value={project} onChange={(e) => setProject(e.target.value)} required>
              {projects.data?.map((p) => (
                <option key={p.id} value={p.key}>
                  {p.name} ({p.key})
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Title">
          {(id) => (
            <input
              id={id}
              required
              maxLength={500}
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              autoFocus
            />
          )}
        </Field>
        <Field label="Description (markdown)">
          {(id) => <textarea id={id} rows={5} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        <ErrorNote error={create.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={create.isPending || !project}>
            Create task
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
