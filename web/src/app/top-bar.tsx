import { useMutation } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { useProjects } from '../features/projects/use-project.ts';
import { signOut as endSession } from '../features/session/api.ts';
import { useSession } from '../features/session/session-provider.tsx';
import { projectFromPath } from './paths.ts';

export function TopBar({ onSearch, onHelp }: { onSearch: () => void; onHelp: () => void }) {
  const { session, signedOut } = useSession();
  const [location, navigate] = useLocation();
  const projects = useProjects();
  const current = projectFromPath(location);
  const signOut = useMutation({
    mutationFn: endSession,
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
