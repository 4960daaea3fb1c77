import { useState } from 'react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import type { View } from '../../lib/api-types.ts';
import { ApiError, qs } from '../../lib/http.ts';
import { useProjects } from '../projects/use-project.ts';
import { useMe } from '../session/session-provider.tsx';
import { ConfirmDialog, Dialog, ErrorNote, Field, Form, Spinner, useNotify } from '../../ui/index.ts';
import { useKnownValues } from './known-values.ts';
import { QueryBar } from './query-bar.tsx';
import { DisplayDialog, ViewTable, columnsOf } from './view-table.tsx';
import {
  MY_WORK_QUERY,
  createView,
  deleteView,
  queryTasksQuery,
  updateView,
  viewKeys,
  viewsQuery,
  type ViewBody,
} from './api.ts';

const viewPath = (id: number) => `/views/${id}`;

/** Where a calendar or timeline view opens: those screens show a view of their layout (`?view=`). */
function plannedPath(view: View): string | null {
  if (view.layout === 'calendar') return `${view.project ? `/p/${view.project}` : ''}/calendar?view=${view.id}`;
  // A timeline is a project's; one across projects shows as a list.
  if (view.layout === 'timeline' && view.project) return `/p/${view.project}/timeline?view=${view.id}`;
  return null;
}

/**
 * A view: a query's tasks across projects (or within one), with the query bar above them and
 * the views beside. `viewId` null is "My work", the view every person has. A query typed and
 * run lives in the URL (`?q=`) until it is saved into a view.
 */
export function ViewScreen({ viewId }: { viewId: number | null }) {
  const views = useQuery(viewsQuery);
  const view = viewId === null ? null : (views.data?.find((v) => v.id === viewId) ?? null);
  if (viewId !== null && views.isPending) return <Spinner />;
  const planned = view ? plannedPath(view) : null;
  if (planned) return <Redirect to={planned} replace />;
  return (
    <section className="page views-screen" aria-labelledby="view-title">
      <div className="views-layout">
        <ViewsNav views={views.data ?? []} current={viewId} error={views.error} />
        <div>
          {viewId !== null && !view ? (
            <>
              <h1 id="view-title">View not found</h1>
              <p>
                No view {viewId} is visible to you. <Link href="/my-work">Go to my work</Link>.
              </p>
            </>
          ) : (
            <ViewBodyScreen key={viewId ?? 'mine'} view={view} />
          )}
        </div>
      </div>
    </section>
  );
}

function ViewsNav({ views, current, error }: { views: View[]; current: number | null; error: unknown }) {
  const me = useMe();
  const mine = views.filter((v) => v.created_by.id === me.user.id);
  const shared = views.filter((v) => v.created_by.id !== me.user.id);
  const item = (v: View) => (
    <li key={v.id}>
      <Link href={viewPath(v.id)} aria-current={current === v.id ? 'page' : undefined}>
        {v.name}
        {v.shared ? <span className="sr-only"> (shared)</span> : null}
      </Link>
    </li>
  );
  return (
    <nav className="views-nav" aria-label="Views">
      <ul>
        <li>
          <Link href="/my-work" aria-current={current === null ? 'page' : undefined}>
            My work
          </Link>
        </li>
      </ul>
      <ErrorNote error={error} />
      {mine.length ? (
        <>
          <h2>My views</h2>
          <ul>{mine.map(item)}</ul>
        </>
      ) : null}
      {shared.length ? (
        <>
          <h2>Shared with me</h2>
          <ul>{shared.map(item)}</ul>
        </>
      ) : null}
    </nav>
  );
}

function ViewBodyScreen({ view }: { view: View | null }) {
  const me = useMe();
  const client = useQueryClient();
  const notify = useNotify();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const saved = view?.query ?? MY_WORK_QUERY;
  const ran = new URLSearchParams(search).get('q') ?? saved;
  const [draft, setDraft] = useState(ran);
  const [focused, setFocused] = useState(false);
  const project = view?.project ?? null;
  const known = useKnownValues(project, focused);
  const tasks = useInfiniteQuery(queryTasksQuery(ran, project));
  const rows = tasks.data?.pages.flatMap((p) => p.tasks) ?? [];
  const total = tasks.data?.pages.at(-1)?.total;
  const [dialog, setDialog] = useState<'save' | 'rename' | 'delete' | 'display' | null>(null);
  // The sharing box shows its new state at once, not after the answer.
  const [shared, setShared] = useState(view?.shared ?? false);
  const admin = me.user.role === 'owner' || me.user.role === 'admin';
  const mayChange = view !== null && (view.created_by.id === me.user.id || (view.shared && admin));

  const run = (q: string) => navigate(`${location}${q.trim() === saved ? '' : qs({ q })}`, { replace: true });
  const refresh = () => client.invalidateQueries({ queryKey: viewKeys.all });
  const change = useMutation({
    mutationFn: (body: Partial<ViewBody>) => updateView(view!.id, body),
    meta: { quiet: true },
    // A refused change of sharing puts the box back.
    onError: () => setShared(view?.shared ?? false),
    onSuccess: (updated, body) => {
      client.setQueryData<View[]>(viewKeys.all, (list) => list?.map((v) => (v.id === updated.id ? updated : v)));
      if (body.query !== undefined) navigate(viewPath(updated.id), { replace: true });
      notify({ kind: 'info', message: 'View saved.' });
      setDialog(null);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteView(view!.id),
    onSuccess: () => {
      client.setQueryData<View[]>(viewKeys.all, (list) => list?.filter((v) => v.id !== view!.id));
      notify({ kind: 'info', message: `View “${view!.name}” deleted.` });
      navigate('/my-work');
    },
  });

  return (
    <>
      <header className="screen-head">
        <h1 id="view-title">{view?.name ?? 'My work'}</h1>
        <div className="actions">
          {view && mayChange && ran !== view.query ? (
            <button
              type="button"
              className="primary"
              disabled={change.isPending}
              onClick={() => change.mutate({ query: ran })}
            >
              Save changes
            </button>
          ) : null}
          <button type="button" onClick={() => setDialog('save')}>
            Save as view
          </button>
          {view && mayChange ? (
            <>
              <button type="button" onClick={() => setDialog('display')}>
                Display
              </button>
              <button type="button" onClick={() => setDialog('rename')}>
                Rename view
              </button>
              <label className="check">
                <input
                  type="checkbox"
                  checked={shared}
                  disabled={change.isPending}
                  onChange={(e) => {
                    setShared(e.target.checked);
                    change.mutate({ shared: e.target.checked });
                  }}
                />{' '}
                Shared with {view.project ? `everyone in ${view.project}` : 'the organization'}
              </label>
              <button type="button" className="link" onClick={() => setDialog('delete')}>
                Delete view
              </button>
            </>
          ) : null}
        </div>
      </header>
      {view ? (
        <p className="muted">
          {view.project ? `In ${view.project}` : 'Across projects'}
          {view.created_by.id !== me.user.id ? `, by ${view.created_by.name}` : ''}
          {view.shared ? ', shared' : ', only you see it'}
        </p>
      ) : null}
      <ErrorNote error={change.error} />
      <div onFocus={() => setFocused(true)}>
        <QueryBar value={draft} ran={ran} onChange={setDraft} onRun={run} error={tasks.error} known={known} />
      </div>
      {tasks.error instanceof ApiError && tasks.error.code === 'INVALID_QUERY' ? null : (
        <ErrorNote error={tasks.error} />
      )}
      {tasks.isPending ? <Spinner /> : null}
      {total !== undefined ? (
        <p className="count-note" role="status">
          {total === 0 ? 'No tasks match.' : total === 1 ? '1 task' : `${total} tasks`}
        </p>
      ) : null}
      <ViewTable tasks={rows} columns={columnsOf(view)} groupBy={view?.group_by ?? null} />
      {tasks.hasNextPage ? (
        <button
          type="button"
          className="more-rows"
          disabled={tasks.isFetchingNextPage}
          onClick={() => void tasks.fetchNextPage()}
        >
          {tasks.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      ) : null}
      <SaveViewDialog
        open={dialog === 'save'}
        query={ran}
        project={project}
        onClose={() => setDialog(null)}
        onSaved={(created) => {
          setDialog(null);
          void refresh();
          notify({ kind: 'info', message: `View “${created.name}” saved.` });
          navigate(viewPath(created.id));
        }}
      />
      {view && dialog === 'display' ? (
        <DisplayDialog
          open
          view={view}
          busy={change.isPending}
          error={change.error}
          onClose={() => setDialog(null)}
          onSave={(display) => change.mutate(display)}
        />
      ) : null}
      {view ? (
        <RenameDialog
          open={dialog === 'rename'}
          name={view.name}
          busy={change.isPending}
          error={change.error}
          onClose={() => setDialog(null)}
          onRename={(name) => change.mutate({ name })}
        />
      ) : null}
      {view ? (
        <ConfirmDialog
          open={dialog === 'delete'}
          title={`Delete the view “${view.name}”?`}
          confirmLabel="Delete the view"
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
          onClose={() => setDialog(null)}
        >
          <p>
            Its query is gone{view.shared ? ', for everyone it is shared with' : ''}; the tasks it shows stay as they
            are.
          </p>
          <ErrorNote error={remove.error} />
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/** Saves the query shown as a new view: a name, the project it belongs to (or none) and whether it is shared. */
function SaveViewDialog({
  open,
  query,
  project: initialProject,
  onClose,
  onSaved,
}: {
  open: boolean;
  query: string;
  project: string | null;
  onClose: () => void;
  onSaved: (view: View) => void;
}) {
  const projects = useProjects();
  const [name, setName] = useState('');
  const [project, setProject] = useState(initialProject ?? '');
  const [shared, setShared] = useState(false);
  const save = useMutation({
    mutationFn: () => createView({ name, query, project: project || null, shared }),
    meta: { quiet: true },
    onSuccess: (view) => {
      setName('');
      onSaved(view);
    },
  });
  return (
    <Dialog open={open} onClose={onClose} title="Save as view">
      <Form className="stack" label="Save as view" onSubmit={() => save.mutate()}>
        <Field label="View name">
          {(id) => <input id={id} required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <p className="muted">
          Query: <code>{query || '(every task)'}</code>
        </p>
        <Field label="Project">
          {(id) => (
            <select id={id} value={project} onChange={(e) => setProject(e.target.value)}>
              <option value="">Across projects</option>
              {projects.data?.map((p) => (
                <option key={p.key} value={p.key}>
                  {p.name} ({p.key})
                </option>
              ))}
            </select>
          )}
        </Field>
        <label className="check">
          <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} /> Share it with{' '}
          {project ? `everyone who sees ${project}` : 'the whole organization'}
        </label>
        <ErrorNote error={save.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            Save view
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </Form>
    </Dialog>
  );
}

function RenameDialog({
  open,
  name: current,
  busy,
  error,
  onClose,
  onRename,
}: {
  open: boolean;
  name: string;
  busy: boolean;
  error: unknown;
  onClose: () => void;
  onRename: (name: string) => void;
}) {
  const [name, setName] = useState(current);
  return (
    <Dialog open={open} onClose={onClose} title="Rename view">
      <Form className="stack" label="Rename view" onSubmit={() => onRename(name)}>
        <Field label="View name">
          {(id) => <input id={id} required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <ErrorNote error={error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            Rename
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </Form>
    </Dialog>
  );
}
