import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useLocation, useSearch } from 'wouter';
import type { Task, TaskLink } from '../../lib/api-types.ts';
import { getAll, qs } from '../../lib/http.ts';
import { ProjectTabs } from '../projects/project-header.tsx';
import { useProject, useProjectConfig, type ProjectConfig } from '../projects/use-project.ts';
import { withTask } from '../tasks/filters.ts';
import { TaskPanel } from '../tasks/task-panel.tsx';
import { ErrorNote, Spinner } from '../../ui/index.ts';
import { allOf, conditionsOf, fetchQuery, planningKeys, spanOf, useMoveDates, type Refusal, type Span } from './api.ts';
import { RefusalNote } from './refusal-note.tsx';
import { addDays, dayNumber, dayTitle, fromDayNumber, monthTitle, shortDay, today, weekday } from './dates.ts';
import { usePointerDrag } from './drag.ts';
import { QueryBar } from './query-bar.tsx';
import { SavedViewBar, useSavedView } from './saved-view.tsx';
import './planning.css';

export const GROUPS = ['sprint', 'milestone', 'assignee', 'parent'] as const;
export type Group = (typeof GROUPS)[number];
const ZOOMS = { day: 36, week: 14, month: 5 } as const;
type Zoom = keyof typeof ZOOMS;

/** Row height, header height and the width of the names column, in pixels. */
const ROW = 30;
const HEAD = 44;
/** The names column: narrower on a phone. */
const leftWidth = () => (window.matchMedia('(max-width: 700px)').matches ? 130 : 260);

function readSearch(search: string) {
  const params = new URLSearchParams(search);
  const group = (GROUPS as readonly string[]).includes(params.get('group') ?? '')
    ? (params.get('group') as Group)
    : null;
  const wanted = params.get('zoom') ?? '';
  const zoom: Zoom = wanted in ZOOMS ? (wanted as Zoom) : 'week';
  return { group, zoom, query: params.get('q') ?? '', task: params.get('task'), view: params.get('view') };
}

type Row = { kind: 'group'; id: string; name: string; count: number } | { kind: 'task'; task: Task; span: Span };

/** A heading row per group, in the project's order (the empty group last), then its tasks by start. */
function rowsOf(tasks: Task[], group: Group, config: ProjectConfig): Row[] {
  const groups = new Map<string, Array<{ task: Task; span: Span }>>();
  for (const task of tasks) {
    const span = spanOf(task);
    if (!span) continue;
    const value = task[group];
    const id = value == null ? '' : String(value);
    groups.set(id, [...(groups.get(id) ?? []), { task, span }]);
  }
  const byKey = new Map(tasks.map((t) => [t.key, t]));
  const order: Array<[string, string]> =
    group === 'sprint'
      ? config.sprints.map((s) => [String(s.id), s.name])
      : group === 'milestone'
        ? config.milestones.map((m) => [String(m.id), m.name])
        : group === 'assignee'
          ? config.members
              .map((m): [string, string] => [String(m.user), m.user_name])
              .sort((a, b) => a[1].localeCompare(b[1]))
          : [...groups.keys()]
              .filter(Boolean)
              .sort()
              .map((key) => [key, `${key}${byKey.get(key) ? ` ${byKey.get(key)!.title}` : ''}`]);
  const none = { sprint: 'No sprint', milestone: 'No milestone', assignee: 'Unassigned', parent: 'No parent' }[group];
  const known = new Set(order.map(([id]) => id));
  // A value the project's lists do not name (a person who left): still its own group.
  for (const id of groups.keys()) if (id && !known.has(id)) order.push([id, `#${id}`]);
  order.push(['', none]);
  const rows: Row[] = [];
  for (const [id, name] of order) {
    const items = groups.get(id);
    if (!items?.length) continue;
    rows.push({ kind: 'group', id, name, count: items.length });
    items.sort((a, b) => a.span.start.localeCompare(b.span.start) || a.task.key.localeCompare(b.task.key));
    for (const item of items) rows.push({ kind: 'task', ...item });
  }
  return rows;
}

/** `blocks` links between the tasks shown: only a task with an open blocker has one to draw, so only theirs are read. */
async function blockLinks(query: string, shown: Set<string>, signal: AbortSignal) {
  const blocked = await fetchQuery(allOf(query, 'blocked = true'), signal);
  const pairs: Array<{ from: string; to: string }> = [];
  const queue = blocked.filter((t) => shown.has(t.key));
  // A few at a time: a project with hundreds of blocked tasks should not open hundreds of requests at once.
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let task = queue.shift(); task; task = queue.shift()) {
        const links = await getAll<TaskLink>(`/api/v1/tasks/${task.key}/links/`, signal);
        for (const link of links)
          if (link.type === 'blocked_by' && shown.has(link.task.key)) pairs.push({ from: link.task.key, to: task.key });
      }
    }),
  );
  return pairs;
}

export function TimelineScreen({ projectKey }: { projectKey: string }) {
  const { project, error: projectError, isPending } = useProject(projectKey);
  const config = useProjectConfig(project);
  const search = useSearch();
  const [location, navigate] = useLocation();
  const { zoom, query, task: openKey, view: viewId } = readSearch(search);
  const view = useSavedView(viewId);
  // The address's grouping, else the view's when the timeline can group by it, else by sprint.
  const group: Group =
    readSearch(search).group ??
    ((GROUPS as readonly string[]).includes(view.data?.group_by ?? '') ? (view.data!.group_by as Group) : 'sprint');
  const q = allOf(
    `project = ${projectKey}`,
    'due IS NOT EMPTY OR start IS NOT EMPTY',
    conditionsOf(view.data?.query ?? ''),
    conditionsOf(query),
  );
  const tasks = useQuery({
    queryKey: planningKeys.range(projectKey, q),
    queryFn: ({ signal }) => fetchQuery(q, signal),
    placeholderData: (previous) => previous,
  });
  const shown = useMemo(() => new Set(tasks.data?.map((t) => t.key)), [tasks.data]);
  const links = useQuery({
    queryKey: [...planningKeys.range(projectKey, q), 'links', [...shown].sort().join(',')],
    queryFn: ({ signal }) => blockLinks(q, shown, signal),
    enabled: tasks.isSuccess,
    placeholderData: (previous) => previous,
  });
  const [live, setLive] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const move = useMoveDates((refused) => {
    setLive(refused.message);
    setRefusal(refused);
  });
  const rows = useMemo(() => rowsOf(tasks.data ?? [], group, config), [tasks.data, group, config]);

  const go = (changes: Partial<{ group: Group; zoom: Zoom; query: string }>) => {
    const next = { group, zoom, query, ...changes };
    navigate(
      `${location}${qs({ view: viewId, group: next.group === 'sprint' ? null : next.group, zoom: next.zoom === 'week' ? null : next.zoom, q: next.query })}`,
      { replace: true },
    );
  };

  if (isPending) return <Spinner />;
  if (!project) return <ErrorNote error={projectError ?? new Error(`No project ${projectKey} is visible to you.`)} />;
  return (
    <section className="timeline-screen" aria-labelledby="timeline-title">
      <ProjectTabs project={project} current="timeline" titleId="timeline-title" />
      <QueryBar query={query} onQuery={(text) => go({ query: text })} />
      <ErrorNote error={view.error} title="The view could not be read" />
      <SavedViewBar view={view.data} layout="timeline" project={projectKey} query={query} groupBy={group} />
      <div className="planning-bar">
        <label className="filter">
          <span>Group by</span>
          <select value={group} onChange={(e) => go({ group: e.target.value as Group })}>
            <option value="sprint">Sprint</option>
            <option value="milestone">Milestone</option>
            <option value="assignee">Assignee</option>
            <option value="parent">Parent</option>
          </select>
        </label>
        <span className="muted count-note">
          {tasks.data ? `${rows.filter((r) => r.kind === 'task').length.toLocaleString()} tasks with dates` : ''}
        </span>
        <div className="segmented" role="group" aria-label="Scale">
          {(Object.keys(ZOOMS) as Zoom[]).map((z) => (
            <button key={z} type="button" aria-pressed={zoom === z} onClick={() => go({ zoom: z })}>
              {{ day: 'Days', week: 'Weeks', month: 'Months' }[z]}
            </button>
          ))}
        </div>
      </div>
      <ErrorNote error={tasks.error} title="The query could not be run" />
      <RefusalNote
        refusal={refusal}
        onDismiss={() => setRefusal(null)}
        onForce={({ task, to, edge }) => {
          setRefusal(null);
          move.mutate({ task, to, edge, force: true });
        }}
      />
      <p className="sr-only" aria-live="assertive">
        {live}
      </p>
      {tasks.data ? (
        <Chart
          rows={rows}
          links={links.data ?? []}
          pxPerDay={ZOOMS[zoom]}
          zoom={zoom}
          announce={setLive}
          onMove={(task, to, edge) => {
            setRefusal(null);
            move.mutate({ task, to, edge });
          }}
        />
      ) : (
        <Spinner label="Loading the timeline" />
      )}
      {openKey ? <TaskPanel taskKey={openKey} onClose={() => navigate(withTask(null))} /> : null}
    </section>
  );
}

interface Moving {
  key: string;
  by: number;
  keyboard: boolean;
  /** The whole bar, or one of its ends (its start date, its due date). */
  edge: Edge;
}

function Chart({
  rows,
  links,
  pxPerDay,
  zoom,
  announce,
  onMove,
}: {
  rows: Row[];
  links: Array<{ from: string; to: string }>;
  pxPerDay: number;
  zoom: Zoom;
  announce: (message: string) => void;
  onMove: (task: Task, to: Span, edge: Edge) => void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const now = today();
  const LEFT = leftWidth();
  // The axis runs from a week before the earliest task (or today) to four weeks after the last.
  const { first, days } = useMemo(() => {
    let lo = dayNumber(now);
    let hi = lo;
    for (const row of rows)
      if (row.kind === 'task') {
        lo = Math.min(lo, dayNumber(row.span.start));
        hi = Math.max(hi, dayNumber(row.span.end));
      }
    return { first: fromDayNumber(lo - 7), days: hi - lo + 36 };
  }, [rows, now]);
  const x = (iso: string) => (dayNumber(iso) - dayNumber(first)) * pxPerDay;
  const width = days * pxPerDay;

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    overscan: 12,
    paddingStart: HEAD,
  });
  const items = virtualizer.getVirtualItems();
  const rowOf = useMemo(() => {
    const map = new Map<string, number>();
    rows.forEach((r, i) => r.kind === 'task' && map.set(r.task.key, i));
    return map;
  }, [rows]);

  // Opens on today, a little in from the edge of the task column: three weeks in, or a third of
  // the dates' width on a phone.
  const scrolled = useRef(false);
  useEffect(() => {
    const scroller = scrollRef.current;
    if (scrolled.current || !scroller) return;
    scrolled.current = true;
    scroller.scrollLeft = Math.max(0, x(now) - Math.min(3 * 7 * pxPerDay, (scroller.clientWidth - LEFT) / 3));
  });

  const [moving, setMoving] = useState<Moving | null>(null);
  const spanFor = (key: string, span: Span) => (moving?.key === key ? shifted(span, moving.by, moving.edge) : span);
  const drop = (task: Task, span: Span, by: number, edge: Edge) => {
    setMoving(null);
    const to = shifted(span, by, edge);
    if (to.start === span.start && to.end === span.end) return;
    announce(
      `${task.key} now ${to.start === to.end ? dayTitle(to.end) : `${dayTitle(to.start)} to ${dayTitle(to.end)}`}.`,
    );
    onMove(task, to, edge);
  };
  const startDrag = usePointerDrag<{ task: Task; span: Span; edge: Edge }>({
    onMove: ({ task, edge }, dx) => setMoving({ key: task.key, by: Math.round(dx / pxPerDay), keyboard: false, edge }),
    onDrop: ({ task, span, edge }, dx) => drop(task, span, Math.round(dx / pxPerDay), edge),
    onCancel: () => setMoving(null),
  });
  const onKey = (event: KeyboardEvent<HTMLElement>, task: Task, span: Span) => {
    const picked = moving?.keyboard && moving.key === task.key ? moving : null;
    if (!picked) {
      if (event.key === ' ') {
        event.preventDefault();
        setMoving({ key: task.key, by: 0, keyboard: true, edge: 'both' });
        announce(
          `Picked up ${task.key}, ${dayTitle(span.start)}. Left and right arrows move it a day, up and down a week, with Shift they move its due date only; Space drops, Escape cancels.`,
        );
      }
      return;
    }
    const steps: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };
    if (event.key in steps) {
      event.preventDefault();
      // Shift moves the due date alone (a longer or shorter bar); a change of mode starts from here.
      const edge: Edge = event.shiftKey ? 'end' : 'both';
      const base = edge === picked.edge ? picked.by : 0;
      const next = edge === picked.edge ? picked : { ...picked, edge };
      if (edge !== picked.edge && picked.by !== 0) return;
      const by = base + steps[event.key]!;
      setMoving({ ...next, by });
      const to = shifted(span, by, edge);
      announce(edge === 'end' ? `${task.key} due ${dayTitle(to.end)}.` : `${task.key} to ${dayTitle(to.start)}.`);
    } else if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      drop(task, span, picked.by, picked.edge);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setMoving(null);
      announce(`Moving ${task.key} was cancelled.`);
    }
  };

  // Stable for the rows, so a scroll draws only the rows that come into view.
  const handlers = useRef({ startDrag, onKey });
  handlers.current = { startDrag, onKey };
  const onPointerDown = useCallback(
    (e: PointerEvent<HTMLElement>, task: Task, span: Span) =>
      handlers.current.startDrag(e, {
        task,
        span,
        edge: ((e.target as HTMLElement).dataset.edge as Edge | undefined) ?? 'both',
      }),
    [],
  );
  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLElement>, task: Task, span: Span) => handlers.current.onKey(e, task, span),
    [],
  );

  // Arrows whose either end is among the rows drawn: the rest are off screen.
  const lo = items[0]?.index ?? 0;
  const hi = items.at(-1)?.index ?? -1;
  const spans = useMemo(() => {
    const map = new Map<string, Span>();
    for (const r of rows) if (r.kind === 'task') map.set(r.task.key, r.span);
    return map;
  }, [rows]);
  const arrows = links.flatMap(({ from, to }) => {
    const a = rowOf.get(from);
    const b = rowOf.get(to);
    const sa = spans.get(from);
    const sb = spans.get(to);
    if (a === undefined || b === undefined || !sa || !sb) return [];
    if ((a < lo || a > hi) && (b < lo || b > hi) && !(Math.min(a, b) < lo && Math.max(a, b) > hi)) return [];
    const fromSpan = spanFor(from, sa);
    const toSpan = spanFor(to, sb);
    const x1 = x(fromSpan.end) + pxPerDay;
    const y1 = (a - lo) * ROW + ROW / 2;
    const x2 = x(toSpan.start);
    const y2 = (b - lo) * ROW + ROW / 2;
    const late = toSpan.start <= fromSpan.end;
    const bend = Math.max(x1 + 8, Math.min(x2 - 8, x1 + 8));
    return [
      <path
        key={`${from}>${to}`}
        d={`M ${x1} ${y1} H ${bend} V ${y2} H ${x2 - 2}`}
        className={late ? 'tl-arrow tl-arrow-late' : 'tl-arrow'}
        markerEnd={late ? 'url(#tl-head-late)' : 'url(#tl-head)'}
        data-link={`${from}>${to}`}
      />,
    ];
  });

  const ticks = useMemo(() => axis(first, days, zoom), [first, days, zoom]);
  const total = virtualizer.getTotalSize();
  return (
    <div
      ref={scrollRef}
      className="tl-scroll"
      role="region"
      aria-label="Timeline"
      tabIndex={0}
      style={{ ['--tl-left' as string]: `${LEFT}px` }}
    >
      <div className="tl-canvas" style={{ width: LEFT + width, height: total }}>
        <Axis ticks={ticks} left={LEFT} width={width} pxPerDay={pxPerDay} first={first} />
        <div
          className="tl-today"
          style={{ left: LEFT + x(now), top: HEAD + lo * ROW, height: (hi - lo + 1) * ROW, width: pxPerDay }}
          aria-hidden="true"
        />
        <svg
          className="tl-links"
          width={width}
          height={Math.max(0, (hi - lo + 1) * ROW)}
          style={{ left: LEFT, top: HEAD + lo * ROW }}
          aria-hidden="true"
        >
          <defs>
            <marker id="tl-head" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto">
              <path d="M0,0 L8,4 L0,8 z" className="tl-arrow-head" />
            </marker>
            <marker
              id="tl-head-late"
              viewBox="0 0 8 8"
              refX="7"
              refY="4"
              markerWidth="7"
              markerHeight="7"
              orient="auto"
            >
              <path d="M0,0 L8,4 L0,8 z" className="tl-arrow-head tl-arrow-late" />
            </marker>
          </defs>
          {arrows}
        </svg>
        <ul className="tl-rows" aria-label="Tasks by start date">
          {items.map((item) => {
            const row = rows[item.index]!;
            return row.kind === 'group' ? (
              <li
                key={`g${row.id}`}
                className="tl-row tl-group"
                style={{ transform: `translateY(${item.start}px)`, width: LEFT + width }}
              >
                <span className="tl-label">
                  <strong>{row.name}</strong> <span className="muted">{row.count}</span>
                </span>
              </li>
            ) : (
              <TaskRow
                key={row.task.key}
                task={row.task}
                span={row.span}
                shown={spanFor(row.task.key, row.span)}
                top={item.start}
                left={LEFT + x(spanFor(row.task.key, row.span).start)}
                barWidth={
                  (dayNumber(spanFor(row.task.key, row.span).end) -
                    dayNumber(spanFor(row.task.key, row.span).start) +
                    1) *
                  pxPerDay
                }
                width={LEFT + width}
                lifted={moving?.key === row.task.key}
                picked={moving?.key === row.task.key && moving.keyboard}
                onPointerDown={onPointerDown}
                onKeyDown={onKeyDown}
              />
            );
          })}
        </ul>
      </div>
    </div>
  );
}

const TaskRow = memo(function TaskRow({
  task,
  span,
  shown,
  top,
  left,
  barWidth,
  width,
  lifted,
  picked,
  onPointerDown,
  onKeyDown,
}: {
  task: Task;
  /** Its dates, and where it is drawn (moved while dragged). */
  span: Span;
  shown: Span;
  top: number;
  left: number;
  barWidth: number;
  width: number;
  lifted: boolean;
  picked: boolean;
  onPointerDown: (e: PointerEvent<HTMLElement>, task: Task, span: Span) => void;
  onKeyDown: (e: KeyboardEvent<HTMLElement>, task: Task, span: Span) => void;
}) {
  const [, navigate] = useLocation();
  const overdue = task.status_category !== 'done' && shown.end < today();
  const when = shown.start === shown.end ? dayTitle(shown.end) : `${dayTitle(shown.start)} to ${dayTitle(shown.end)}`;
  return (
    <li className="tl-row" style={{ transform: `translateY(${top}px)`, width }} data-row={task.key}>
      <span className="tl-label" title={task.title}>
        <span className="cal-key">{task.key}</span> {task.title}
      </span>
      <button
        type="button"
        className={`tl-bar cat-bar-${task.status_category}${lifted ? ' tl-lifted' : ''}${overdue ? ' tl-overdue' : ''}`}
        style={{ left, width: Math.max(barWidth, 6) }}
        data-bar={task.key}
        data-task={task.key}
        data-nav-item=""
        aria-pressed={picked ? true : undefined}
        aria-roledescription="draggable task"
        aria-label={`${task.key} ${task.title}, ${task.status}, ${when}${overdue ? ', overdue' : ''}`}
        onPointerDown={(e) => onPointerDown(e, task, span)}
        onKeyDown={(e) => onKeyDown(e, task, span)}
        onKeyUp={(e) => e.key === ' ' && e.preventDefault()}
        onClick={() => navigate(withTask(task.key))}
      >
        <span aria-hidden="true" className="tl-edge tl-edge-start" data-edge="start" title="Drag to change the start" />
        <span aria-hidden="true">{barWidth >= 60 ? task.title : ''}</span>
        <span aria-hidden="true" className="tl-edge tl-edge-end" data-edge="end" title="Drag to change the due date" />
      </button>
    </li>
  );
});

type Edge = 'both' | 'start' | 'end';

/** A span moved `by` days: whole, or by one end (never past the other end). */
function shifted(span: Span, by: number, edge: Edge): Span {
  if (edge === 'start') {
    const start = addDays(span.start, by);
    return { start: start > span.end ? span.end : start, end: span.end };
  }
  if (edge === 'end') {
    const end = addDays(span.end, by);
    return { start: span.start, end: end < span.start ? span.start : end };
  }
  return { start: addDays(span.start, by), end: addDays(span.end, by) };
}

/** The dates along the top, drawn again only when the scale or the range changes (not on every scroll). */
const Axis = memo(function Axis({
  ticks,
  left,
  width,
  pxPerDay,
  first,
}: {
  ticks: ReturnType<typeof axis>;
  left: number;
  width: number;
  pxPerDay: number;
  first: string;
}) {
  return (
    <div className="tl-head" style={{ width: left + width }} aria-hidden="true">
      <div className="tl-corner">Task</div>
      {ticks.map((t) => (
        <div
          key={t.day}
          className={t.major ? 'tl-tick tl-major' : 'tl-tick'}
          style={{ left: left + (dayNumber(t.day) - dayNumber(first)) * pxPerDay, width: t.width * pxPerDay }}
        >
          {t.label}
        </div>
      ))}
    </div>
  );
});

/** The labels along the top: days (Mondays stronger), Mondays, or the first of each month. */
function axis(first: string, days: number, zoom: Zoom) {
  const ticks: Array<{ day: string; label: string; width: number; major: boolean }> = [];
  for (let i = 0; i < days; i++) {
    const day = addDays(first, i);
    const d = Number(day.slice(8));
    if (zoom === 'day') ticks.push({ day, label: String(d), width: 1, major: weekday(day) === 0 });
    else if (zoom === 'week' && weekday(day) === 0) ticks.push({ day, label: shortDay(day), width: 7, major: d <= 7 });
    else if (zoom === 'month' && d === 1) ticks.push({ day, label: monthTitle(day), width: 30, major: true });
  }
  return ticks;
}
