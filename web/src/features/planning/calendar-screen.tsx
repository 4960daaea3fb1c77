import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useSearch } from 'wouter';
import type { Task } from '../../lib/api-types.ts';
import { qs } from '../../lib/http.ts';
import { ProjectTabs } from '../projects/project-header.tsx';
import { useProject } from '../projects/use-project.ts';
import { withTask } from '../tasks/filters.ts';
import { TaskPanel } from '../tasks/task-panel.tsx';
import { ErrorNote, Spinner } from '../../ui/index.ts';
import {
  allOf,
  conditionsOf,
  fetchQuery,
  overlapping,
  planningKeys,
  spanOf,
  useMoveDates,
  type Refusal,
  type Span,
} from './api.ts';
import { RefusalNote } from './refusal-note.tsx';
import {
  addDays,
  addMonths,
  dayTitle,
  daysBetween,
  monthTitle,
  shortDay,
  startOfMonth,
  startOfWeek,
  today,
  weekdayName,
} from './dates.ts';
import { usePointerDrag } from './drag.ts';
import { QueryBar } from './query-bar.tsx';
import { SavedViewBar, useSavedView } from './saved-view.tsx';
import './planning.css';

type Mode = 'month' | 'week';

/** What the address says: month or week, the day it is about, and the query narrowing it. */
function readSearch(search: string) {
  const params = new URLSearchParams(search);
  const mode: Mode = params.get('mode') === 'week' ? 'week' : 'month';
  const date = /^\d{4}-\d{2}-\d{2}$/.test(params.get('date') ?? '') ? params.get('date')! : today();
  return { mode, date, query: params.get('q') ?? '', task: params.get('task'), view: params.get('view') };
}

/** The days on screen: whole weeks covering the month, or one week. */
function daysShown(mode: Mode, date: string): string[] {
  const first = mode === 'month' ? startOfWeek(startOfMonth(date)) : startOfWeek(date);
  const weeks = mode === 'month' ? Math.ceil((daysBetween(first, addMonths(date, 1)) || 1) / 7) : 1;
  return Array.from({ length: weeks * 7 }, (_, i) => addDays(first, i));
}

/** The tasks whose span meets [from, to], within the scope and the person's query. */
function rangeQuery(scope: string, from: string, to: string, query: string): string {
  return allOf(scope, overlapping(from, to), conditionsOf(query));
}

/** A project's calendar (`projectKey`), or the person's own across projects. */
export function CalendarScreen({ projectKey }: { projectKey?: string }) {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const { mode, date, query, task: openKey, view: viewId } = readSearch(search);
  const view = useSavedView(viewId);
  const days = useMemo(() => daysShown(mode, date), [mode, date]);
  const first = days[0]!;
  const last = days.at(-1)!;
  // A view across projects says itself what it shows; without one, my calendar is what is assigned to me.
  const scope = projectKey ? `project = ${projectKey}` : viewId ? '' : 'assignee = me()';
  const q = rangeQuery(allOf(scope, conditionsOf(view.data?.query ?? '')), first, last, query);
  const tasks = useQuery({
    queryKey: planningKeys.range(projectKey ?? '*', q),
    queryFn: ({ signal }) => fetchQuery(q, signal),
    placeholderData: (previous) => previous,
  });
  const { project, error: projectError, isPending } = useProject(projectKey ?? '');
  const [live, setLive] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const move = useMoveDates((refused) => {
    setLive(refused.message);
    setRefusal(refused);
  });

  const go = (changes: Partial<{ mode: Mode; date: string; query: string }>) => {
    const next = { mode, date, query, ...changes };
    navigate(
      `${location}${qs({ view: viewId, mode: next.mode === 'month' ? null : next.mode, date: next.date === today() ? null : next.date, q: next.query })}`,
      { replace: true },
    );
  };
  const step = (n: number) => go({ date: mode === 'month' ? addMonths(date, n) : addDays(date, 7 * n) });

  if (projectKey && isPending) return <Spinner />;
  if (projectKey && !project)
    return <ErrorNote error={projectError ?? new Error(`No project ${projectKey} is visible to you.`)} />;
  const title = mode === 'month' ? monthTitle(date) : `${shortDay(first)} – ${shortDay(last)}`;
  return (
    <section className="calendar-screen" aria-labelledby="calendar-title">
      {project ? (
        <ProjectTabs project={project} current="calendar" titleId="calendar-title" />
      ) : (
        <header className="screen-head">
          <h1 id="calendar-title">My calendar</h1>
          <p className="muted">Tasks assigned to you, in every project.</p>
        </header>
      )}
      <QueryBar query={query} onQuery={(text) => go({ query: text })} />
      <ErrorNote error={view.error} title="The view could not be read" />
      <SavedViewBar
        view={view.data}
        layout="calendar"
        project={projectKey ?? null}
        query={projectKey || viewId ? query : allOf('assignee = me()', query)}
        groupBy={null}
      />
      <div className="planning-bar">
        <div className="actions">
          <button type="button" onClick={() => step(-1)} aria-label={`Previous ${mode}`}>
            ‹
          </button>
          <button type="button" onClick={() => go({ date: today() })}>
            Today
          </button>
          <button type="button" onClick={() => step(1)} aria-label={`Next ${mode}`}>
            ›
          </button>
        </div>
        <h2 className="planning-title" aria-live="polite">
          {title}
        </h2>
        <div className="segmented" role="group" aria-label="Calendar layout">
          {(['month', 'week'] as const).map((m) => (
            <button key={m} type="button" aria-pressed={mode === m} onClick={() => go({ mode: m })}>
              {m === 'month' ? 'Month' : 'Week'}
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
        <MonthGrid
          mode={mode}
          days={days}
          month={date.slice(0, 7)}
          tasks={tasks.data}
          showProject={!projectKey}
          onMove={(task, to) => {
            setRefusal(null);
            move.mutate({ task, to });
          }}
          announce={setLive}
        />
      ) : tasks.isPending ? (
        <Spinner label="Loading the calendar" />
      ) : null}
      {tasks.data && !projectKey && tasks.data.length === 0 ? (
        <p className="muted">
          Nothing assigned to you is due in these days. <Link href="/my-work">All your work</Link>.
        </p>
      ) : null}
      {openKey ? <TaskPanel taskKey={openKey} onClose={() => navigate(withTask(null))} /> : null}
    </section>
  );
}

/** When a task is, in words: due on a day, or from its start to its due date. */
export function whenOf(task: Task, span: Span): string {
  if (span.start === span.end) return task.due_date ? `due ${dayTitle(span.end)}` : `starts ${dayTitle(span.start)}`;
  return `from ${dayTitle(span.start)} to ${dayTitle(span.end)}`;
}

/** A task being moved: by how many days, and whether by the keyboard (then the focus follows it). */
interface Moving {
  task: Task;
  span: Span;
  by: number;
  keyboard: boolean;
}

function MonthGrid({
  mode,
  days,
  month,
  tasks,
  showProject,
  onMove,
  announce,
}: {
  mode: Mode;
  days: string[];
  month: string;
  tasks: Task[];
  showProject: boolean;
  onMove: (task: Task, to: Span) => void;
  announce: (message: string) => void;
}) {
  const [, navigate] = useLocation();
  const [moving, setMoving] = useState<Moving | null>(null);
  const [focusOn, setFocusOn] = useState<{ key: string; day: string } | null>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const now = today();

  // Tasks per day they cover, in due order then key.
  const byDay = useMemo(() => {
    const map = new Map<string, Array<{ task: Task; span: Span }>>();
    const sorted = [...tasks].sort(
      (a, b) => (a.due_date ?? '').localeCompare(b.due_date ?? '') || a.key.localeCompare(b.key),
    );
    for (const task of sorted) {
      const span = spanOf(task);
      if (!span) continue;
      for (let d = span.start; d <= span.end; d = addDays(d, 1)) {
        const list = map.get(d) ?? [];
        list.push({ task, span });
        map.set(d, list);
      }
    }
    return map;
  }, [tasks]);

  // After a keyboard move the task is drawn in another day: the focus goes with it.
  useEffect(() => {
    if (!focusOn) return;
    gridRef.current?.querySelector<HTMLElement>(`[data-chip="${focusOn.key}"][data-day="${focusOn.day}"]`)?.focus();
  }, [focusOn, tasks, moving]);

  const target = moving
    ? { start: addDays(moving.span.start, moving.by), end: addDays(moving.span.end, moving.by) }
    : null;

  const drop = (m: Moving) => {
    setMoving(null);
    if (m.by === 0) {
      announce(`${m.task.key} stays on ${dayTitle(m.span.end)}.`);
      return;
    }
    const to = { start: addDays(m.span.start, m.by), end: addDays(m.span.end, m.by) };
    announce(`${m.task.key} moved to ${dayTitle(to.end)}.`);
    if (m.keyboard) setFocusOn({ key: m.task.key, day: to.start });
    onMove(m.task, to);
  };

  const dayAt = (e: PointerEvent) =>
    (document.elementFromPoint(e.clientX, e.clientY)?.closest('[data-cell]') as HTMLElement | null)?.dataset.cell ??
    null;
  const by = (item: Moving & { day: string }, e: PointerEvent) => {
    const over = dayAt(e);
    return over ? daysBetween(item.day, over) : (moving?.by ?? 0);
  };
  const onPointerDown = usePointerDrag<Moving & { day: string }>({
    onMove: (item, _dx, _dy, e) => setMoving({ ...item, by: by(item, e) }),
    onDrop: (item, _dx, _dy, e) => drop({ ...item, by: by(item, e) }),
    onCancel: () => setMoving(null),
  });

  const onKeyDown = (event: KeyboardEvent<HTMLElement>, task: Task, span: Span, day: string) => {
    const picked = moving?.keyboard && moving.task.key === task.key ? moving : null;
    if (!picked) {
      if (event.key === ' ') {
        event.preventDefault();
        setMoving({ task, span, by: 0, keyboard: true });
        setFocusOn({ key: task.key, day });
        announce(
          `Picked up ${task.key}, ${whenOf(task, span)}. Left and right arrows move it a day, up and down a week, Space drops, Escape cancels.`,
        );
      }
      return;
    }
    const steps: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };
    if (event.key in steps) {
      event.preventDefault();
      const by = picked.by + steps[event.key]!;
      setMoving({ ...picked, by });
      announce(`${task.key} to ${dayTitle(addDays(span.end, by))}.`);
    } else if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      drop(picked);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setMoving(null);
      announce(`Moving ${task.key} was cancelled.`);
    }
  };

  return (
    <div
      ref={gridRef}
      className={`cal-grid cal-${mode}${moving ? ' cal-moving' : ''}`}
      role="list"
      aria-label={mode === 'month' ? 'Days of the month' : 'Days of the week'}
    >
      {days.slice(0, 7).map((d) => (
        <div key={`h${d}`} className="cal-weekday" aria-hidden="true">
          {weekdayName(d)}
        </div>
      ))}
      {days.map((day) => {
        const items = byDay.get(day) ?? [];
        const inTarget = target !== null && day >= target.start && day <= target.end;
        const outside = mode === 'month' && day.slice(0, 7) !== month;
        return (
          <section
            key={day}
            role="listitem"
            aria-label={`${dayTitle(day)}, ${items.length} ${items.length === 1 ? 'task' : 'tasks'}`}
            data-cell={day}
            className={[
              'cal-day',
              outside ? 'cal-outside' : '',
              day === now ? 'cal-today' : '',
              inTarget ? 'cal-target' : '',
              items.length === 0 ? 'cal-empty' : '',
            ]
              .filter(Boolean)
              .join(' ')}
          >
            <div className="cal-date" aria-hidden="true">
              <span className="cal-weekday-inline">{weekdayName(day)} </span>
              {Number(day.slice(8))}
            </div>
            <ul className="cal-items">
              {items.map(({ task, span }) => {
                const lifted = moving?.task.key === task.key;
                const overdue = task.status_category !== 'done' && span.end < now;
                return (
                  <li key={task.key}>
                    <button
                      type="button"
                      className={[
                        'cal-chip',
                        `cat-line-${task.status_category}`,
                        span.start !== span.end && day !== span.start ? 'cal-cont-left' : '',
                        span.start !== span.end && day !== span.end ? 'cal-cont-right' : '',
                        lifted ? 'cal-lifted' : '',
                        overdue ? 'cal-overdue' : '',
                      ]
                        .filter(Boolean)
                        .join(' ')}
                      data-chip={task.key}
                      data-day={day}
                      data-task={task.key}
                      data-nav-item=""
                      aria-pressed={lifted && moving?.keyboard ? true : undefined}
                      aria-roledescription="draggable task"
                      aria-label={`${task.key} ${task.title}, ${task.status}, ${whenOf(task, span)}${overdue ? ', overdue' : ''}`}
                      onPointerDown={(e) => onPointerDown(e, { task, span, by: 0, keyboard: false, day })}
                      onKeyUp={(e) => e.key === ' ' && e.preventDefault()}
                      onKeyDown={(e) => onKeyDown(e, task, span, day)}
                      onClick={() => navigate(withTask(task.key))}
                    >
                      <span className="cal-key">
                        {showProject ? task.key : task.key.slice(task.key.indexOf('-') + 1)}
                      </span>{' '}
                      {task.title}
                    </button>
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
