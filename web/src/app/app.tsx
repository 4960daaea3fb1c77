import { useEffect, useState } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { qs } from '../lib/http.ts';
import { AcceptInvitation } from '../features/auth/accept-invitation.tsx';
import { ResetPassword } from '../features/auth/reset-password.tsx';
import { Setup } from '../features/auth/setup.tsx';
import { SignIn } from '../features/auth/sign-in.tsx';
import { Board } from '../features/board/board-screen.tsx';
import { ListView } from '../features/list/list-screen.tsx';
import { MyWork } from '../features/my-work/my-work-screen.tsx';
import { ProjectSettings } from '../features/project-settings/project-settings-screen.tsx';
import { Projects } from '../features/projects/projects-screen.tsx';
import { useProjects } from '../features/projects/use-project.ts';
import { SearchDialog } from '../features/search/search-dialog.tsx';
import { useSession } from '../features/session/session-provider.tsx';
import { Organization, Profile } from '../features/settings/settings-screens.tsx';
import { Standups } from '../features/standups/standups-screen.tsx';
import { NewTaskDialog } from '../features/tasks/new-task-dialog.tsx';
import { TaskScreen } from '../features/tasks/task-screen.tsx';
import { ErrorNote, Spinner } from '../ui/index.ts';
import { HelpDialog } from './help-dialog.tsx';
import { LiveBanner, useLiveUpdates } from './live.tsx';
import { OfflineBanner } from './offline-banner.tsx';
import { projectFromPath } from './paths.ts';
import { useShortcuts } from './shortcuts.ts';
import { TopBar } from './top-bar.tsx';

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

/** `/` opens the last project's board, or the project list. */
function Home() {
  const projects = useProjects();
  if (projects.isPending) return <Spinner />;
  const last = localStorage.getItem(LAST_PROJECT);
  const target = projects.data?.find((p) => p.key === last) ?? projects.data?.[0];
  return <Redirect to={target ? `/p/${target.key}/board` : '/projects'} replace />;
}
