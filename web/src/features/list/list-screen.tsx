import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { Link, useLocation, useSearch } from 'wouter';
import type { Task } from '../../lib/api-types.ts';
import { ApiError } from '../../lib/http.ts';
import { ProjectTabs } from '../projects/project-header.tsx';
import { useProject, useProjectConfig, type ProjectConfig } from '../projects/use-project.ts';
import { bulkUpdateTasks, taskKeys, type TaskChanges } from '../tasks/api.ts';
import { filtersFrom, matchesText, withTask } from '../tasks/filters.ts';
import { TaskPanel } from '../tasks/task-panel.tsx';
import { Filters } from '../tasks/task-filters.tsx';
import { ErrorNote, Spinner, formatDate, useNotify } from '../../ui/index.ts';
import { taskPagesQuery } from './api.ts';

const SORTS = [
  { field: 'key', label: 'Key' },
  { field: 'priority', label: 'Priority' },
  { field: 'due_date', label: 'Due' },
  { field: 'updated_at', label: 'Updated' },
] as const;

interface ItemError {
  index: number;
  key?: string;
  code: string;
  message: string;
}

type BulkChange = TaskChanges | ((task: Task) => TaskChanges);

/** The project's tasks a page of 200 at a time, in the server's `ordering`, narrowed by `q` on the client. */
function useTaskPages(projectKey: string, search: string) {
  const filters = filtersFrom(search);
  const ordering = new URLSearchParams(search).get('ordering') ?? 'key';
  const { q: _q, ...server } = filters;
  const pages = useInfiniteQuery(taskPagesQuery(projectKey, server, ordering));
  const rows = useMemo(() => {
    // A task edited while the pages load can move between them: show it once.
    const seen = new Set<string>();
    return (pages.data?.pages.flatMap((p) => p.tasks) ?? []).filter(
      (t) => !seen.has(t.key) && seen.add(t.key) && matchesText(t, filters.q),
    );
  }, [pages.data, filters.q]);
  const total = pages.data?.pages.at(-1)?.total;
  return { filters, ordering, pages, rows, total };
}

/** The chosen rows and one change applied to all of them, in batches of 100; a refused batch names each refused task. */
function useBulkEdit(projectKey: string, rows: Task[]) {
  const client = useQueryClient();
  const notify = useNotify();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [itemErrors, setItemErrors] = useState<Map<string, string>>(new Map());
  const [bulkError, setBulkError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const toggle = (key: string) =>
    setSelected((set) => {
      const next = new Set(set);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const bulk = async (change: BulkChange) => {
    const chosen = rows.filter((r) => selected.has(r.key));
    if (!chosen.length) return;
    setBusy(true);
    setBulkError(null);
    setItemErrors(new Map());
    try {
      for (let i = 0; i < chosen.length; i += 100) {
        const batch = chosen.slice(i, i + 100);
        await bulkUpdateTasks(
          projectKey,
          batch.map((t) => ({ key: t.key, ...(typeof change === 'function' ? change(t) : change) })),
        );
      }
      notify({ kind: 'info', message: `Updated ${chosen.length} ${chosen.length === 1 ? 'task' : 'tasks'}.` });
      setSelected(new Set());
    } catch (error) {
      const items = error instanceof ApiError ? (error.details.items as ItemError[] | undefined) : undefined;
      if (items?.length)
        setItemErrors(
          new Map(items.map((item) => [item.key ?? chosen[item.index]?.key ?? String(item.index), item.message])),
        );
      setBulkError(error);
    } finally {
      setBusy(false);
      await client.invalidateQueries({ queryKey: taskKeys.lists(projectKey) });
    }
  };

  return { selected, setSelected, toggle, itemErrors, bulkError, busy, bulk };
}

/** Sortable, filterable table with cursor paging, multi-select and bulk edit through bulk-update. */
export function ListView({ projectKey }: { projectKey: string }) {
  const { project, isPending, error: projectError } = useProject(projectKey);
  const config = useProjectConfig(project);
  const search = useSearch();
  const [, navigate] = useLocation();
  const { filters, ordering, pages, rows, total } = useTaskPages(projectKey, search);
  const edit = useBulkEdit(projectKey, rows);
  const openKey = new URLSearchParams(search).get('task');

  const sortBy = (field: string) => {
    const params = new URLSearchParams(search);
    params.set('ordering', ordering === field ? `-${field}` : field);
    navigate(`/p/${projectKey}/list?${params}`, { replace: true });
  };

  if (isPending) return <Spinner />;
  if (!project) return <ErrorNote error={projectError ?? new Error(`No project ${projectKey} is visible to you.`)} />;
  return (
    <section className="list-screen" aria-labelledby="list-title">
      <ProjectTabs project={project} current="list" titleId="list-title" />
      <Filters
        config={config}
        filters={filters}
        base={`/p/${projectKey}/list`}
        count={rows.length}
        total={filters.q ? undefined : total}
      />
      {edit.selected.size ? (
        <BulkBar
          config={config}
          count={edit.selected.size}
          busy={edit.busy}
          bulk={edit.bulk}
          onClear={() => edit.setSelected(new Set())}
        />
      ) : null}
      <ErrorNote error={edit.bulkError} title="Nothing was changed" />
      <ErrorNote error={pages.error} />
      <TasksTable rows={rows} config={config} edit={edit} ordering={ordering} sortBy={sortBy} />
      {pages.isPending ? <Spinner /> : null}
      {openKey ? <TaskPanel taskKey={openKey} onClose={() => navigate(withTask(null))} /> : null}
      {pages.hasNextPage ? (
        <MoreRows loading={pages.isFetchingNextPage} onMore={() => void pages.fetchNextPage()} />
      ) : null}
    </section>
  );
}

/** Reads the next page as it scrolls into view; the button does the same from the keyboard. */
function MoreRows({ loading, onMore }: { loading: boolean; onMore: () => void }) {
  const ref = useRef<HTMLButtonElement>(null);
  const more = useRef(onMore);
  more.current = onMore;
  useEffect(() => {
    const button = ref.current;
    if (!button || loading) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && more.current(), {
      rootMargin: '400px',
    });
    observer.observe(button);
    return () => observer.disconnect();
  }, [loading]);
  return (
    <button ref={ref} type="button" className="more-rows" onClick={onMore} disabled={loading}>
      {loading ? 'Loading…' : 'Load more'}
    </button>
  );
}

/** One change for every selected task: a status, an assignee, one more label or a sprint. */
function BulkBar({
  config,
  count,
  busy,
  bulk,
  onClear,
}: {
  config: ProjectConfig;
  count: number;
  busy: boolean;
  bulk: (change: BulkChange) => Promise<void>;
  onClear: () => void;
}) {
  return (
    <div className="bulk-bar" role="region" aria-label="Bulk edit">
      <strong>{count} selected</strong>
      <label>
        <span>Status</span>
        <select value="" disabled={busy} onChange={(e) => e.target.value && void bulk({ status: e.target.value })}>
          <option value="">Set status…</option>
          {config.statuses.map((s) => (
            <option key={s.id}>{s.name}</option>
          ))}
        </select>
      </label>
      <label>
        <span>Assignee</span>
        <select
          value=""
          disabled={busy}
          onChange={(e) =>
            e.target.value && void bulk({ assignee: e.target.value === 'none' ? null : Number(e.target.value) })
          }
        >
          <option value="">Assign to…</option>
          <option value="none">Nobody</option>
          {config.members.map((m) => (
            <option key={m.user} value={m.user}>
              {m.user_name}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Label</span>
        <select
          value=""
          disabled={busy}
          onChange={(e) => {
            const label = e.target.value;
            if (label) void bulk((t) => ({ labels: [...new Set([...t.labels, label])] }));
          }}
        >
          <option value="">Add label…</option>
          {config.labels.map((l) => (
            <option key={l.id}>{l.name}</option>
          ))}
        </select>
      </label>
      <label>
        <span>Sprint</span>
        <select
          value=""
          disabled={busy}
          onChange={(e) =>
            e.target.value && void bulk({ sprint: e.target.value === 'none' ? null : Number(e.target.value) })
          }
        >
          <option value="">Move to sprint…</option>
          <option value="none">No sprint</option>
          {config.sprints.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="link" onClick={onClear}>
        Clear selection
      </button>
    </div>
  );
}

type BulkEdit = ReturnType<typeof useBulkEdit>;

function TasksTable({
  rows,
  config,
  edit,
  ordering,
  sortBy,
}: {
  rows: Task[];
  config: ProjectConfig;
  edit: BulkEdit;
  ordering: string;
  sortBy: (field: string) => void;
}) {
  const [, navigate] = useLocation();
  const { selected, setSelected, toggle, itemErrors } = edit;
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.key));
  // Only the rows near the screen are in the page: thousands of rows would make every page read
  // and every selection re-render them all. Spacer rows above and below keep the scroll height.
  const body = useRef<HTMLTableSectionElement>(null);
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const at = body.current ? body.current.getBoundingClientRect().top + window.scrollY : 0;
    if (at !== top) setTop(at);
  });
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => 38,
    overscan: 12,
    scrollMargin: top,
    getItemKey: (index) => rows[index]!.key,
  });
  const shown = virtualizer.getVirtualItems();
  const margin = virtualizer.options.scrollMargin;
  const above = shown.length ? shown[0]!.start - margin : 0;
  const below = shown.length ? virtualizer.getTotalSize() - (shown.at(-1)!.end - margin) : 0;
  const sortHeaders = (sorts: ReadonlyArray<(typeof SORTS)[number]>) =>
    sorts.map((s) => (
      <th
        key={s.field}
        scope="col"
        aria-sort={ordering === s.field ? 'ascending' : ordering === `-${s.field}` ? 'descending' : undefined}
      >
        <button type="button" className="link" onClick={() => sortBy(s.field)}>
          {s.label}
        </button>
      </th>
    ));
  return (
    <div className="table-wrap">
      <table className="tasks-table">
        <thead>
          <tr>
            <th scope="col">
              <input
                type="checkbox"
                aria-label="Select all shown tasks"
                checked={allSelected}
                onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((r) => r.key)))}
              />
            </th>
            {sortHeaders(SORTS.slice(0, 1))}
            <th scope="col">Title</th>
            <th scope="col">Status</th>
            <th scope="col">Assignee</th>
            {sortHeaders(SORTS.slice(1))}
          </tr>
        </thead>
        <tbody ref={body}>
          {above > 0 ? <Spacer height={above} /> : null}
          {shown.map(({ index }) => {
            const t = rows[index]!;
            return (
              <tr
                key={t.key}
                ref={virtualizer.measureElement}
                data-index={index}
                className={selected.has(t.key) ? 'selected' : undefined}
                data-row-task={t.key}
              >
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Select ${t.key}`}
                    checked={selected.has(t.key)}
                    onChange={() => toggle(t.key)}
                  />
                </td>
                <td>
                  <Link
                    href={`/t/${t.key}`}
                    data-nav-item=""
                    onClick={(e) => {
                      // A plain click opens the task beside the list; a new tab still gets its page.
                      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
                      e.preventDefault();
                      navigate(withTask(t.key));
                    }}
                  >
                    {t.key}
                  </Link>
                </td>
                <td>
                  {t.title}
                  {itemErrors.has(t.key) ? (
                    <p className="error item-error" role="alert">
                      {itemErrors.get(t.key)}
                    </p>
                  ) : null}
                </td>
                <td>{t.status}</td>
                <td>
                  {t.assignee != null ? config.memberName(t.assignee) : <span className="muted">Unassigned</span>}
                </td>
                <td>{t.priority}</td>
                <td>{formatDate(t.due_date)}</td>
                <td>{formatDate(t.updated_at)}</td>
              </tr>
            );
          })}
          {below > 0 ? <Spacer height={below} /> : null}
        </tbody>
      </table>
    </div>
  );
}

/** Stands in for the rows scrolled out of the page, so the scroll bar and position stay true. */
function Spacer({ height }: { height: number }) {
  return (
    <tr aria-hidden="true" className="spacer">
      <td colSpan={8} style={{ height }} />
    </tr>
  );
}
