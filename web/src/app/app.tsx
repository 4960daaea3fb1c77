import { Suspense, useEffect, useState } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { qs } from '../lib/http.ts';
import { SignIn } from '../features/auth/sign-in.tsx';
import { Board } from '../features/board/board-screen.tsx';
import { ListView } from '../features/list/list-screen.tsx';
import { useProjects } from '../features/projects/use-project.ts';
import { SearchDialog } from '../features/search/search-dialog.tsx';
import { useSession } from '../features/session/session-provider.tsx';
import { NewTaskDialog, type NewTaskRequest } from '../features/tasks/new-task-dialog.tsx';
import { CommandPalette } from '../features/palette/command-palette.tsx';
import { signOut as endSession } from '../features/session/api.ts';
import { rememberSignOut } from '../features/oidc/api.ts';
import { useTaskShortcuts } from '../features/tasks/shortcuts.ts';
import { toggleTheme } from './theme.ts';
import { ErrorNote, Spinner } from '../ui/index.ts';
import { HelpDialog } from './help-dialog.tsx';
import { LiveBanner, useLiveUpdates } from './live.tsx';
import { OfflineBanner } from './offline-banner.tsx';
import { projectFromPath } from './paths.ts';
import {
  AcceptInvitation,
  CalendarScreen,
  Inbox,
  ProjectSettings,
  Projects,
  ReportsScreen,
  ResetPassword,
  Settings,
  Setup,
  SignInProblem,
  Standups,
  TaskScreen,
  TimelineScreen,
  ViewScreen,
} from './screens.ts';
import { useShortcuts } from './shortcuts.ts';
import { TopBar } from './top-bar.tsx';

const LAST_PROJECT = 'tt:last-project';

export function App() {
  const { session, loading, error } = useSession();
  const [location] = useLocation();
  if (loading) return <Spinner label="Starting" />;
  return (
    <Suspense fallback={<Spinner label="Loading" />}>
      <Switch>
        <Route path="/setup" component={Setup} />
        <Route path="/invite" component={AcceptInvitation} />
        <Route path="/reset-password" component={ResetPassword} />
        <Route path="/sign-in/problem" component={SignInProblem} />
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
    </Suspense>
  );
}

function SignedIn() {
  const [searchOpen, setSearchOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [newTask, setNewTask] = useState<NewTaskRequest | null>(null);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [location, navigate] = useLocation();
  const onTask = useTaskShortcuts();
  useShortcuts({
    search: () => setSearchOpen(true),
    help: () => setHelpOpen(true),
    create: () => setNewTask({ project: projectFromPath(location) ?? '' }),
    palette: () => setPaletteOpen(true),
    onTask,
  });
  const { signedOut } = useSession();
  useEffect(() => {
    const onNew = (event: Event) => setNewTask((event as CustomEvent<NewTaskRequest>).detail ?? { project: '' });
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
        <Suspense fallback={<Spinner label="Loading" />}>
          <Switch>
            <Route path="/">
              <Home />
            </Route>
            <Route path="/projects" component={Projects} />
            <Route path="/p/:key/board">{(params) => <Board key={params.key} projectKey={params.key} />}</Route>
            <Route path="/p/:key/list">{(params) => <ListView key={params.key} projectKey={params.key} />}</Route>
            <Route path="/p/:key/calendar">
              {(params) => <CalendarScreen key={params.key} projectKey={params.key} />}
            </Route>
            <Route path="/p/:key/timeline">
              {(params) => <TimelineScreen key={params.key} projectKey={params.key} />}
            </Route>
            <Route path="/p/:key/reports">
              {(params) => <ReportsScreen key={params.key} projectKey={params.key} />}
            </Route>
            <Route path="/p/:key/settings">
              {(params) => <ProjectSettings key={params.key} projectKey={params.key} />}
            </Route>
            <Route path="/t/:key">{(params) => <TaskScreen key={params.key} taskKey={params.key} />}</Route>
            <Route path="/my-work">
              <ViewScreen viewId={null} />
            </Route>
            <Route path="/views/:id">{(params) => <ViewScreen key={params.id} viewId={Number(params.id)} />}</Route>
            <Route path="/inbox" component={Inbox} />
            <Route path="/calendar">{() => <CalendarScreen />}</Route>
            <Route path="/standups" component={Standups} />
            <Route path="/settings">
              <Redirect to="/settings/profile" replace />
            </Route>
            <Route path="/settings/:section/:rest?">
              {(params) => <Settings section={params.section} rest={params.rest} />}
            </Route>
            <Route>
              <section className="page">
                <h1>Not found</h1>
                <p>
                  Nothing lives at this address. <Link href="/projects">Go to projects</Link>.
                </p>
              </section>
            </Route>
          </Switch>
        </Suspense>
      </main>
      <SearchDialog open={searchOpen} onClose={() => setSearchOpen(false)} />
      <CommandPalette
        open={paletteOpen}
        onClose={() => setPaletteOpen(false)}
        actions={{
          newTask: () => setNewTask({ project: projectFromPath(location) ?? '' }),
          search: () => setSearchOpen(true),
          help: () => setHelpOpen(true),
          toggleTheme,
          signOut: () =>
            void endSession().then(() => {
              rememberSignOut();
              signedOut();
              navigate('/sign-in');
            }),
        }}
      />
      <HelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
      <NewTaskDialog request={newTask} onClose={() => setNewTask(null)} />
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
