import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
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
import type { Status } from '../../lib/api-types.ts';
import { ProjectTabs } from '../projects/project-header.tsx';
import { useProject, useProjectConfig, type ProjectConfig } from '../projects/use-project.ts';
import { taskKeys, updateTask } from '../tasks/api.ts';
import { TaskPanel } from '../tasks/task-panel.tsx';
import { withTask } from '../tasks/filters.ts';
import { filtersFrom } from '../tasks/filters.ts';
import { Filters } from '../tasks/task-filters.tsx';
import { Avatar, ErrorNote, Spinner, errorNotice, formatDate, useNotify } from '../../ui/index.ts';
import {
  boardQuery,
  boardsOf,
  cardOf,
  loadMoreCards,
  placeOnBoards,
  versionOf,
  type BoardCard,
  type BoardColumn,
} from './api.ts';

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

/** A status a card can move to. */
type Target = Pick<Status, 'name' | 'category'>;

/** Moves a card to another status at once on every open board of the project; a refused move puts it back and says why. */
function useMoveTask(projectKey: string, onRefused: (message: string) => void) {
  const client = useQueryClient();
  const notify = useNotify();
  const place = (key: string, card: BoardCard) => placeOnBoards(client, projectKey, key, card, true);
  return useMutation({
    mutationFn: async ({ card, to }: { card: BoardCard; to: Target }) => updateTask(card.key, { status: to.name }),
    meta: { quiet: true },
    onMutate: async ({ card, to }) => {
      await client.cancelQueries({ queryKey: taskKeys.lists(projectKey) });
      const before = boardsOf(client, projectKey);
      place(card.key, { ...card, status: to.name, status_category: to.category });
      return { before };
    },
    onError: (error, { card, to }, context) => {
      for (const [key, data] of context?.before ?? []) client.setQueryData(key, data);
      const notice = errorNotice(error);
      notify({ ...notice, message: `${card.key} stays in ${card.status}: ${notice.message}` });
      onRefused(`${card.key} could not move to ${to.name}. ${notice.message}`);
    },
    onSuccess: (saved) => {
      place(saved.task.key, cardOf(saved.task, versionOf(saved.etag)));
      client.setQueryData(taskKeys.task(saved.task.key), saved);
    },
  });
}

export function Board({ projectKey }: { projectKey: string }) {
  const { project, error: projectError, isPending } = useProject(projectKey);
  const config = useProjectConfig(project);
  const client = useQueryClient();
  const search = useSearch();
  const filters = filtersFrom(search);
  // Read at once, alongside the project: the first cards need nothing else.
  const board = useQuery(boardQuery(projectKey, filters));
  const [, navigate] = useLocation();
  const openKey = new URLSearchParams(search).get('task');
  const [liveMessage, setLiveMessage] = useState('');
  const move = useMoveTask(projectKey, setLiveMessage);
  const total = board.data?.columns.reduce((sum, c) => sum + c.count, 0) ?? 0;
  const filtered = Object.keys(filters).length > 0;

  if (isPending) return <Spinner />;
  if (!project) return <ErrorNote error={projectError ?? new Error(`No project ${projectKey} is visible to you.`)} />;
  return (
    <section className="board-screen" aria-labelledby="board-title">
      <ProjectTabs project={project} current="board" titleId="board-title" />
      <Filters config={config} filters={filters} base={`/p/${projectKey}/board`} count={total} />
      <ErrorNote error={board.error ?? config.error} />
      <p className="sr-only" aria-live="assertive">
        {liveMessage}
      </p>
      {board.data && total === 0 && !filtered ? (
        <div className="empty-state" role="note">
          <p>
            <strong>No tasks yet.</strong> A task is one piece of work; it moves across these columns as it gets done.
          </p>
          <button type="button" className="primary" onClick={() => newTask(projectKey)}>
            Create the first task
          </button>
        </div>
      ) : null}
      {!board.data ? (
        <Spinner label="Loading the board" />
      ) : (
        <Columns
          config={config}
          columns={board.data.columns}
          onMove={(card, to) => move.mutate({ card, to })}
          onMore={(status) => loadMoreCards(client, projectKey, filters, status)}
          projectKey={projectKey}
          startStatus={project.default_status ?? board.data.columns[0]?.status.name ?? ''}
        />
      )}
      {openKey ? <TaskPanel taskKey={openKey} onClose={() => navigate(withTask(null))} /> : null}
    </section>
  );
}

/** Opens the new task dialog for this project, in `status` when given. */
const newTask = (project: string, status?: string) =>
  window.dispatchEvent(new CustomEvent('tt:new-task', { detail: { project, status } }));

/** What a screen reader hears while a card is dragged, naming the columns the workflow lets it reach. */
function announcementsFor(config: ProjectConfig, isReachable: (status: string) => boolean): Announcements {
  return {
    onDragStart: ({ active: a }) => {
      const task = a.data.current?.task as BoardCard | undefined;
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
  columns,
  onMove,
  onMore,
  projectKey,
  startStatus,
}: {
  config: ProjectConfig;
  columns: BoardColumn[];
  onMove: (card: BoardCard, to: Target) => void;
  onMore: (status: string) => Promise<void>;
  projectKey: string;
  /** Where a new task starts: a column's add is offered where it starts or may move to at once. */
  startStatus: string;
}) {
  const fromStart = config.reachable(startStatus);
  const [active, setActive] = useState<BoardCard | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    // Enter opens a card, so only Space picks one up; Space or Enter drops it.
    useSensor(KeyboardSensor, {
      coordinateGetter: columnCoordinates,
      keyboardCodes: { start: ['Space'], cancel: ['Escape'], end: ['Space', 'Enter'] },
    }),
  );

  const reachable = active ? config.reachable(active.status) : null;
  const isReachable = (status: string) =>
    !active || status === active.status || reachable === null || reachable.has(status);

  const onDragStart = (event: DragStartEvent) => setActive((event.active.data.current?.task as BoardCard) ?? null);
  const onDragEnd = (event: DragEndEvent) => {
    const card = event.active.data.current?.task as BoardCard | undefined;
    setActive(null);
    const to = columns.find((c) => c.status.name === event.over?.id)?.status;
    if (!card || !to || to.name === card.status) return;
    onMove(card, to);
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
        {columns.map((column) => (
          <Column
            key={column.status.id}
            column={column}
            config={config}
            activeKey={active?.key ?? null}
            onMore={onMore}
            projectKey={projectKey}
            addable={column.status.name === startStatus || fromStart === null || fromStart.has(column.status.name)}
            state={
              !active
                ? 'idle'
                : column.status.name === active.status
                  ? 'origin'
                  : isReachable(column.status.name)
                    ? 'reachable'
                    : 'unreachable'
            }
          />
        ))}
      </div>
      <DragOverlay dropAnimation={null}>
        {active ? (
          // The same card as on the board, lifted: it keeps its look while it travels.
          <div className="card card-lifted">
            <CardBody card={active} config={config} />
          </div>
        ) : null}
      </DragOverlay>
    </DndContext>
  );
}

type ColumnState = 'idle' | 'origin' | 'reachable' | 'unreachable';

function Column({
  column,
  config,
  activeKey,
  state,
  onMore,
  projectKey,
  addable,
}: {
  column: BoardColumn;
  config: ProjectConfig;
  activeKey: string | null;
  state: ColumnState;
  onMore: (status: string) => Promise<void>;
  projectKey: string;
  addable: boolean;
}) {
  const { status, cards } = column;
  const { setNodeRef, isOver } = useDroppable({ id: status.name, data: { status } });
  const scrollRef = useRef<HTMLDivElement>(null);
  const activeIndex = activeKey ? cards.findIndex((t) => t.key === activeKey) : -1;
  const virtualizer = useVirtualizer({
    count: cards.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 68,
    overscan: 6,
    // The first render already holds a screen's worth of cards, before the column has been measured.
    initialRect: { width: 0, height: window.innerHeight },
    getItemKey: (index) => cards[index]!.key,
    // The card being dragged stays mounted even when scrolled away, so the drag keeps its source.
    rangeExtractor: (range) => {
      const indexes = defaultRangeExtractor(range);
      return activeIndex >= 0 && !indexes.includes(activeIndex)
        ? [...indexes, activeIndex].sort((a, b) => a - b)
        : indexes;
    },
  });
  const items = virtualizer.getVirtualItems();
  const lastShown = items.at(-1)?.index ?? -1;
  const [loading, setLoading] = useState(false);
  // The column's next cards as its end comes into view.
  useEffect(() => {
    if (!column.has_more || loading || lastShown < cards.length - 8) return;
    setLoading(true);
    void onMore(status.name).finally(() => setLoading(false));
  }, [column.has_more, loading, lastShown, cards.length, onMore, status.name]);
  const headingId = `col-${status.id}`;
  return (
    <section
      ref={setNodeRef}
      className={`column column-${state}${isOver ? ' over' : ''}`}
      aria-labelledby={headingId}
      data-status={status.name}
    >
      <div className="column-head">
        <h2 id={headingId}>
          <span className={`dot cat-${status.category}`} aria-hidden="true" />
          {status.name}
          <span className="count" aria-label={`${column.count} tasks`}>
            {column.count}
          </span>
        </h2>
        {addable ? (
          <button
            type="button"
            className="icon-button"
            aria-label={`Add a task to ${status.name}`}
            title={`Add a task to ${status.name}`}
            onClick={() => newTask(projectKey, status.name)}
          >
            +
          </button>
        ) : null}
      </div>
      {state === 'unreachable' ? <p className="column-note">No transition from here</p> : null}
      <div ref={scrollRef} className="column-scroll">
        <ul className="column-list" role="list" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const card = cards[item.index]!;
            return (
              <li
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className="column-item"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <Card card={card} config={config} />
              </li>
            );
          })}
        </ul>
        {column.has_more ? <p className="column-more muted">{loading ? 'Loading more…' : ''}</p> : null}
      </div>
    </section>
  );
}

const Card = memo(function Card({ card, config }: { card: BoardCard; config: ProjectConfig }) {
  const [, navigate] = useLocation();
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: card.key, data: { task: card } });
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    listeners?.onKeyDown?.(event);
    if (event.key === 'Enter' && !event.defaultPrevented) navigate(withTask(card.key));
  };
  return (
    <article
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      onKeyDown={onKeyDown}
      onClick={() => navigate(withTask(card.key))}
      className={isDragging ? 'card placeholder' : 'card'}
      data-nav-item=""
      data-task={card.key}
      aria-roledescription="card"
      aria-label={`${card.key} ${card.title}${card.parent ? `, subtask of ${card.parent}` : ''}`}
    >
      <CardBody card={card} config={config} />
    </article>
  );
});

function CardBody({ card, config }: { card: BoardCard; config: ProjectConfig }) {
  const overdue =
    card.due_date && card.status_category !== 'done' && card.due_date < new Date().toISOString().slice(0, 10);
  const assignee = card.assignee != null ? config.memberName(card.assignee) : null;
  return (
    <div className="card-body">
      {card.parent ? (
        <p className="card-parent">
          <span aria-hidden="true">↳ </span>Subtask of {card.parent}
        </p>
      ) : null}
      <p className="card-title">{card.title}</p>
      <div className="card-meta">
        <span className="key">{card.key}</span>
        <span className={`prio prio-${card.priority.toLowerCase()}`} title={`Priority ${card.priority}`}>
          {card.priority}
        </span>
        {card.task_type !== 'Task' ? <span className="chip">{card.task_type}</span> : null}
        {card.due_date ? (
          <span className={overdue ? 'due overdue' : 'due'}>Due {formatDate(card.due_date)}</span>
        ) : null}
        {card.labels.map((label) => (
          <span key={label} className="label">
            {label}
          </span>
        ))}
        <Avatar name={assignee} />
      </div>
    </div>
  );
}
