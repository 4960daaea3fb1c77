import { useState, type ReactNode } from 'react';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  closestCenter,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';

/**
 * Up and down arrows move a dragged row a whole row at a time instead of 25 pixels. The move is
 * a distance added to where the row is now: the measured rects and the sensor's coordinates are
 * not in the same frame once the page has scrolled during the drag.
 */
const rowCoordinates: KeyboardCoordinateGetter = (
  event,
  { currentCoordinates, context: { droppableRects, droppableContainers, collisionRect } },
) => {
  if (!collisionRect || (event.code !== 'ArrowDown' && event.code !== 'ArrowUp')) return undefined;
  event.preventDefault();
  const center = collisionRect.top + collisionRect.height / 2;
  const middles = droppableContainers
    .getEnabled()
    .map((container) => droppableRects.get(container.id))
    .filter((rect) => rect !== undefined)
    .map((rect) => ({ rect, middle: rect.top + rect.height / 2 }))
    .sort((a, b) => a.middle - b.middle);
  const target =
    event.code === 'ArrowDown'
      ? middles.find((r) => r.middle > center + 1)
      : [...middles].reverse().find((r) => r.middle < center - 1);
  if (!target) return undefined;
  return { x: currentCoordinates.x, y: currentCoordinates.y + target.middle - center };
};

/** `ids` with `id` moved to where `to` stands. */
export function moved(ids: number[], id: number, to: number): number[] {
  const from = ids.indexOf(id);
  const at = ids.indexOf(to);
  if (from < 0 || at < 0 || from === at) return ids;
  const next = [...ids];
  next.splice(from, 1);
  next.splice(at, 0, id);
  return next;
}

export interface SortableProps<T extends { id: number }> {
  items: T[];
  /** What the rows are, for the list's label and announcements ("statuses"). */
  noun: string;
  name: (item: T) => string;
  /** Saves a new order (every id); the list shows it at once and until the promise settles. */
  onReorder: (ids: number[]) => Promise<unknown>;
  disabled?: boolean;
  children: (item: T, index: number) => ReactNode;
}

/**
 * A list reordered by dragging a row's handle with a mouse, a finger or the keyboard (focus the
 * handle, Space to pick up, arrows to move, Space to drop, Escape to cancel), and with Move up /
 * Move down buttons for who prefers them.
 */
export function SortableList<T extends { id: number }>({
  items,
  noun,
  name,
  onReorder,
  disabled,
  children,
}: SortableProps<T>) {
  const [pending, setPending] = useState<number[] | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    // An instant scroll keeps each arrow press a whole row: a smooth one still running when the
    // next key comes measures from halfway.
    useSensor(KeyboardSensor, { coordinateGetter: rowCoordinates, scrollBehavior: 'auto' }),
  );
  const byId = new Map(items.map((item) => [item.id, item]));
  const shown = pending ? pending.map((id) => byId.get(id)).filter((item) => item !== undefined) : items;
  const ids = shown.map((item) => item.id);
  const label = (id: unknown) => {
    const item = byId.get(Number(id));
    return item ? name(item) : String(id);
  };
  const position = (id: unknown) => ids.indexOf(Number(id)) + 1;
  const save = (next: number[]) => {
    if (next.join() === ids.join()) return;
    setPending(next);
    onReorder(next)
      .catch(() => undefined) // the caller shows the error; the stored order comes back
      .finally(() => setPending(null));
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      `Picked up ${label(active.id)}, position ${position(active.id)} of ${ids.length}. Up and down arrows move it, Space drops, Escape cancels.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${label(active.id)} is over position ${position(over.id)} of ${ids.length}.`
        : `${label(active.id)} is outside the list.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `${label(active.id)} dropped at position ${position(over.id)} of ${ids.length}.`
        : `${label(active.id)} dropped outside the list; nothing changed.`,
    onDragCancel: ({ active }) => `Moving ${label(active.id)} was cancelled.`,
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over) save(moved(ids, Number(active.id), Number(over.id)));
  };
  const step = (index: number, by: number) => save(moved(ids, ids[index]!, ids[index + by]!));
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable: `To reorder ${noun}, press Space to pick one up, the up and down arrows to move it, Space again to drop it, Escape to cancel.`,
        },
      }}
    >
      <ol className="sortable" aria-label={`${noun[0]!.toUpperCase()}${noun.slice(1)} in order`}>
        {shown.map((item, index) => (
          <Row key={item.id} id={item.id} name={name(item)} disabled={disabled || pending !== null}>
            {children(item, index)}
            <span className="move">
              <button
                type="button"
                aria-label={`Move ${name(item)} up`}
                disabled={disabled || pending !== null || index === 0}
                onClick={() => step(index, -1)}
              >
                ↑
              </button>
              <button
                type="button"
                aria-label={`Move ${name(item)} down`}
                disabled={disabled || pending !== null || index === shown.length - 1}
                onClick={() => step(index, 1)}
              >
                ↓
              </button>
            </span>
          </Row>
        ))}
      </ol>
    </DndContext>
  );
}

function Row({ id, name, disabled, children }: { id: number; name: string; disabled: boolean; children: ReactNode }) {
  const drag = useDraggable({ id, disabled });
  const drop = useDroppable({ id });
  const style = drag.transform
    ? { transform: `translate3d(0, ${drag.transform.y}px, 0)`, position: 'relative' as const, zIndex: 2 }
    : undefined;
  const className = [
    'sortable-row',
    drag.isDragging ? 'dragging' : '',
    drop.isOver && !drag.isDragging ? 'drop-here' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <li
      ref={(node) => {
        drag.setNodeRef(node);
        drop.setNodeRef(node);
      }}
      className={className}
      style={style}
      data-sortable-id={id}
    >
      <button
        type="button"
        className="handle"
        aria-label={`Drag ${name}`}
        {...drag.attributes}
        aria-roledescription="sortable"
        {...drag.listeners}
      >
        ⠿
      </button>
      {children}
    </li>
  );
}
