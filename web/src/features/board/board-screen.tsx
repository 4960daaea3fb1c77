import { memo, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer, defaultRangeExtractor } from '@tanstack/react-virtual';
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  pointerWithin,
  rectIntersection,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';
import { useLocation, useSearch } from 'wouter';
import type { Status, Task } from '../../lib/api-types.ts';
import { ProjectTabs } from '../projects/project-header.tsx';
import { useProject, useProjectConfig, type ProjectConfig } from '../projects/use-project.ts';
import { taskKeys, updateTask } from '../tasks/api.ts';
import { filtersFrom, matchesText } from '../tasks/filters.ts';
import { Filters } from '../tasks/task-filters.tsx';
import { ErrorNote, Spinner, errorNotice, formatDate, useNotify } from '../../ui/index.ts';
import { boardTasksQuery } from './api.ts';

/** Arrow keys jump a dragged card a whole column at a time instead of 25 pixels. */
const columnCoordinates: KeyboardCoordinateGetter = (
  event,
  { currentCoordinates, context: { droppableRects, droppableContainers, collisionRect } },
) => {
  if (!collisionRect || (event.code !== 'ArrowRight' && event.code !== 'ArrowLeft')) return undefined;
  event.preventDefault();
  const rects = droppableContainers
    .getEnabled()
    .map((container) => droppableRects.get(container.id))
    .filter((rect) => rect !== undefined)
    .sort((a, b) => a.left - b.left);
  const center = collisionRect.left + collisionRect.width / 2;
  const target =
    event.code === 'ArrowRight'
      ? rects.find((r) => r.left > center)
      : [...rects].reverse().find((r) => r.left + r.width < center);
  if (!target) return undefined;
  // A distance from where the card is now: the rects' frame and the sensor's differ once anything scrolled.
  return {
    x: currentCoordinates.x + target.left + (target.width - collisionRect.width) / 2 - collisionRect.left,
    y: currentCoordinates.y,
  };
};

/** The pointer decides where a mouse or finger drops; a keyboard drag (no pointer) goes by overlap. */
const collision: CollisionDetection = (args) => {
  const within = pointerWithin(args);
  return within.length ? within : rectIntersection(args);
};

/** Moves a card to another status at once in every cached list of the project; a refused move puts it back and says why. */
function useMoveTask(projectKey: string, onRefused: (message: string) => void) {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: async ({ task, to }: { task: Task; to: Status }) =>
      (await updateTask(task.key, { status: to.name })).task,
    meta: { quiet: true },
    onMutate: async ({ task, to }) => {
      await client.cancelQueries({ queryKey: taskKeys.lists(projectKey) });
      const before = client.getQueriesData<Task[]>({ queryKey: taskKeys.lists(projectKey) });
      client.setQueriesData<Task[]>({ queryKey: taskKeys.lists(projectKey) }, (list) =>
        list?.map((t) => (t.key === task.key ? { ...t, status: to.name, status_category: to.category } : t)),
      );
      return { before };
    },
    onError: (error, { task, to }, context) => {
      for (const [key, data] of context?.before ?? []) client.setQueryData(key, data);
      const notice = errorNotice(error);
      notify({ ...notice, message: `${task.key} stays in ${task.status}: ${notice.message}` });
      onRefused(`${task.key} could not move to ${to.name}. ${notice.message}`);
    },
    onSuccess: (saved) => {
      client.setQueriesData<Task[]>({ queryKey: taskKeys.lists(projectKey) }, (list) =>
        list?.map((t) => (t.key === saved.key ? saved : t)),
      );
      void client.invalidateQueries({ queryKey: taskKeys.task(saved.key) });
    },
  });
}

export function Board({ projectKey }: { projectKey: string }) {
  const { project, error: projectError, isPending } = useProject(projectKey);
  const config = useProjectConfig(project);
  const search = useSearch();
  const filters = filtersFrom(search);
  const tasks = useQuery(boardTasksQuery(projectKey, filters));
  const [liveMessage, setLiveMessage] = useState('');
  const move = useMoveTask(projectKey, setLiveMessage);
  const visible = useMemo(() => (tasks.data ?? []).filter((t) => matchesText(t, filters.q)), [tasks.data, filters.q]);

  if (isPending) return <Spinner />;
  if (!project) return <ErrorNote error={projectError ?? new Error(`No project ${projectKey} is visible to you.`)} />;
  return (
    <section className="board-screen" aria-labelledby="board-title">
      <ProjectTabs project={project} current="board" titleId="board-title" />
      <Filters config={config} filters={filters} base={`/p/${projectKey}/board`} count={visible.length} />
      <ErrorNote error={tasks.error ?? config.error} />
      <p className="sr-only" aria-live="assertive">
        {liveMessage}
      </p>
      {!tasks.data || !config.ready ? (
        <Spinner label="Loading the board" />
      ) : (
        <Columns config={config} tasks={visible} onMove={(task, to) => move.mutate({ task, to })} />
      )}
    </section>
  );
}

/** What a screen reader hears while a card is dragged, naming the columns the workflow lets it reach. */
function announcementsFor(config: ProjectConfig, isReachable: (status: string) => boolean): Announcements {
  return {
    onDragStart: ({ active: a }) => {
      const task = a.data.current?.task as Task | undefined;
      if (!task) return '';
      const targets = config.reachable(task.status);
      const list = targets === null ? 'any column' : targets.size ? [...targets].join(', ') : 'no other column';
      return `Picked up ${task.key} from ${task.status}. It can move to ${list}. Left and right arrows choose a column, Space drops, Escape cancels.`;
    },
    onDragOver: ({ over }) =>
      over
        ? `Over ${String(over.id)}${isReachable(String(over.id)) ? '' : ', which no transition reaches'}.`
        : 'Not over a column.',
    onDragEnd: ({ active: a, over }) =>
      over ? `Dropped ${String(a.id)} on ${String(over.id)}.` : `${String(a.id)} dropped outside the columns.`,
    onDragCancel: ({ active: a }) => `Moving ${String(a.id)} was cancelled.`,
  };
}

/** A column per status; a card dragged by pointer, touch or keyboard lights the columns it may reach and moves on drop. */
function Columns({
  config,
  tasks,
  onMove,
}: {
  config: ProjectConfig;
  tasks: Task[];
  onMove: (task: Task, to: Status) => void;
}) {
  const [active, setActive] = useState<Task | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    // Enter opens a card, so only Space picks one up; Space or Enter drops it.
    useSensor(KeyboardSensor, {
      coordinateGetter: columnCoordinates,
      keyboardCodes: { start: ['Space'], cancel: ['Escape'], end: ['Space', 'Enter'] },
    }),
  );
  const byStatus = useMemo(() => {
    const map = new Map<string, Task[]>();
    for (const status of config.statuses) map.set(status.name, []);
    for (const task of tasks) map.get(task.status)?.push(task);
    return map;
  }, [tasks, config.statuses]);

  const reachable = active ? config.reachable(active.status) : null;
  const isReachable = (status: string) =>
    !active || status === active.status || reachable === null || reachable.has(status);

  const onDragStart = (event: DragStartEvent) => setActive((event.active.data.current?.task as Task) ?? null);
  const onDragEnd = (event: DragEndEvent) => {
    const task = event.active.data.current?.task as Task | undefined;
    setActive(null);
    const to = config.statuses.find((s) => s.name === event.over?.id);
    if (!task || !to || to.name === task.status) return;
    onMove(task, to);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collision}
      onDragStart={onDragStart}
      onDragEnd={onDragEnd}
      onDragCancel={() => setActive(null)}
      accessibility={{
        announcements: announcementsFor(config, isReachable),
        screenReaderInstructions: {
          draggable:
            'Press Space to pick up the card, arrows to choose a column, Space to drop, Escape to cancel. Enter opens it.',
        },
      }}
    >
      <div className={active ? 'board dragging' : 'board'}>
        {config.statuses.map((status) => (
          <Column
            key={status.id}
            status={status}
            tasks={byStatus.get(status.name) ?? []}
            config={config}
            activeKey={active?.key ?? null}
            state={
              !active
                ? 'idle'
                : status.name === active.status
                  ? 'origin'
                  : isReachable(status.name)
                    ? 'reachable'
                    : 'unreachable'
            }
          />
        ))}
      </div>
      <DragOverlay dropAnimation={null}>{active ? <CardBody task={active} config={config} /> : null}</DragOverlay>
    </DndContext>
  );
}

type ColumnState = 'idle' | 'origin' | 'reachable' | 'unreachable';

function Column({
  status,
  tasks,
  config,
  activeKey,
  state,
}: {
  status: Status;
  tasks: Task[];
  config: ProjectConfig;
  activeKey: string | null;
  state: ColumnState;
}) {
  const { setNodeRef, isOver } = useDroppable({ id: status.name, data: { status } });
  const scrollRef = useRef<HTMLDivElement>(null);
  const activeIndex = activeKey ? tasks.findIndex((t) => t.key === activeKey) : -1;
  const virtualizer = useVirtualizer({
    count: tasks.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 92,
    overscan: 6,
    getItemKey: (index) => tasks[index]!.key,
    // The card being dragged stays mounted even when scrolled away, so the drag keeps its source.
    rangeExtractor: (range) => {
      const indexes = defaultRangeExtractor(range);
      return activeIndex >= 0 && !indexes.includes(activeIndex)
        ? [...indexes, activeIndex].sort((a, b) => a - b)
        : indexes;
    },
  });
  const headingId = `col-${status.id}`;
  return (
    <section
      ref={setNodeRef}
      className={`column column-${state}${isOver ? ' over' : ''}`}
      aria-labelledby={headingId}
      data-status={status.name}
    >
      <h2 id={headingId} className="column-head">
        <span className={`dot cat-${status.category}`} aria-hidden="true" />
        {status.name}
        <span className="count" aria-label={`${tasks.length} tasks`}>
          {tasks.length}
        </span>
      </h2>
      {state === 'unreachable' ? <p className="column-note">No transition from here</p> : null}
      <div ref={scrollRef} className="column-scroll">
        <ul className="column-list" role="list" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const task = tasks[item.index]!;
            return (
              <li
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className="column-item"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <Card task={task} config={config} />
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

const Card = memo(function Card({ task, config }: { task: Task; config: ProjectConfig }) {
  const [, navigate] = useLocation();
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: task.key, data: { task } });
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    listeners?.onKeyDown?.(event);
    if (event.key === 'Enter' && !event.defaultPrevented) navigate(`/t/${task.key}`);
  };
  return (
    <article
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      onKeyDown={onKeyDown}
      onClick={() => navigate(`/t/${task.key}`)}
      className={isDragging ? 'card placeholder' : 'card'}
      data-nav-item=""
      data-task={task.key}
      aria-roledescription="card"
      aria-label={`${task.key} ${task.title}`}
    >
      <CardBody task={task} config={config} />
    </article>
  );
});

function CardBody({ task, config }: { task: Task; config: ProjectConfig }) {
  const overdue =
    task.due_date && task.status_category !== 'done' && task.due_date < new Date().toISOString().slice(0, 10);
  return (
    <div className="card-body">
      <div className="card-top">
        <span className="key">{task.key}</span>
        <span className="chip">{task.task_type}</span>
        <span className={`chip prio prio-${task.priority.toLowerCase()}`}>{task.priority}</span>
      </div>
      <p className="card-title">{task.title}</p>
      <div className="card-meta">
        {task.assignee != null ? (
          <span className="assignee">{config.memberName(task.assignee)}</span>
        ) : (
          <span className="muted">Unassigned</span>
        )}
        {task.due_date ? (
          <span className={overdue ? 'due overdue' : 'due'}>Due {formatDate(task.due_date)}</span>
        ) : null}
      </div>
      {task.labels.length ? (
        <ul className="labels" aria-label="Labels">
          {task.labels.map((label) => (
            <li key={label} className="label">
              {label}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
