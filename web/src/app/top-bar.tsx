import { useEffect, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { unreadCountQuery } from '../features/notifications/api.ts';
import { useProjects } from '../features/projects/use-project.ts';
import { signOut as endSession } from '../features/session/api.ts';
import { rememberSignOut } from '../features/oidc/api.ts';
import { useSession } from '../features/session/session-provider.tsx';
import { projectFromPath, settingsHome } from './paths.ts';
import { currentTheme, toggleTheme } from './theme.ts';

export function TopBar({ onSearch, onHelp }: { onSearch: () => void; onHelp: () => void }) {
  const { session, signedOut } = useSession();
  const [location, navigate] = useLocation();
  const projects = useProjects();
  const current = projectFromPath(location);
  const signOut = useMutation({
    mutationFn: endSession,
    onSuccess: () => {
      rememberSignOut();
      signedOut();
      navigate('/sign-in');
    },
  });
  // On a phone the navigation and the account sit behind one button, so the bar is one row.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [location]);
  return (
    <header className={menuOpen ? 'topbar menu-open' : 'topbar'}>
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
        <Link
          href="/my-work"
          aria-current={location === '/my-work' || location.startsWith('/views/') ? 'page' : undefined}
        >
          My work
        </Link>
        <Link href="/calendar" aria-current={location === '/calendar' ? 'page' : undefined}>
          Calendar
        </Link>
        <Link href="/standups" aria-current={location === '/standups' ? 'page' : undefined}>
          Standups
        </Link>
        <Link href="/projects" aria-current={location === '/projects' ? 'page' : undefined}>
          Projects
        </Link>
        <Link
          href={settingsHome(session?.user.role ?? '')}
          aria-current={location.startsWith('/settings') ? 'page' : undefined}
        >
          Settings
        </Link>
      </nav>
      <div className="topbar-actions">
        <button type="button" onClick={onSearch} aria-label="Search">
          <span aria-hidden="true" className="search-icon">
            ⌕
          </span>
          <span className="search-label" aria-hidden="true">
            Search
          </span>{' '}
          <kbd>/</kbd>
        </button>
        <InboxLink current={location === '/inbox'} />
        <ThemeToggle />
        <button type="button" className="keyboard-only" onClick={onHelp} aria-label="Keyboard shortcuts">
          <kbd>?</kbd>
        </button>
        <Link href="/settings/profile" className="who in-menu">
          {session?.user.name}
        </Link>
        <button type="button" className="in-menu" onClick={() => signOut.mutate()}>
          Sign out
        </button>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-label="Menu"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          ☰
        </button>
      </div>
    </header>
  );
}

/** The inbox, with how many notifications are unread; the live stream keeps the count current. */
function InboxLink({ current }: { current: boolean }) {
  const unread = useQuery(unreadCountQuery);
  const count = unread.data ?? 0;
  return (
    <Link
      href="/inbox"
      className="inbox-link"
      aria-current={current ? 'page' : undefined}
      aria-label={count ? `Inbox, ${count} unread` : 'Inbox'}
    >
      <span aria-hidden="true" className="inbox-label">
        Inbox
      </span>
      <span aria-hidden="true" className="inbox-icon">
        ✉
      </span>
      {count ? (
        <span className="unread-count" aria-hidden="true" data-count={count}>
          {count > 99 ? '99+' : count}
        </span>
      ) : null}
    </Link>
  );
}

/** Dark or light: follows the system until pressed, then keeps the choice. */
function ThemeToggle() {
  const [dark, setDark] = useState(() => currentTheme() === 'dark');
  useEffect(() => {
    const sync = () => setDark(currentTheme() === 'dark');
    window.addEventListener('tt:theme', sync);
    return () => window.removeEventListener('tt:theme', sync);
  }, []);
  return (
    <button type="button" className="icon-button" aria-label="Dark theme" aria-pressed={dark} onClick={toggleTheme}>
      {dark ? '☾' : '☀'}
    </button>
  );
}
