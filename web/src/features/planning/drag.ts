import { useEffect, useRef, type PointerEvent as ReactPointerEvent } from 'react';

/** How far a pointer travels before a press becomes a drag (a shorter one is a click). */
const THRESHOLD_PX = 6;

export interface PointerDragHandlers<T> {
  /** The drag started, or the pointer moved during it: `dx`/`dy` from where it was pressed. */
  onMove: (item: T, dx: number, dy: number, event: PointerEvent) => void;
  onDrop: (item: T, dx: number, dy: number, event: PointerEvent) => void;
  onCancel: (item: T) => void;
}

/**
 * A drag by mouse, pen or finger, without a drag-and-drop library: the screens need the
 * pointer's travel in pixels (to whole days), not drop targets. Escape cancels; the click that
 * ends a drag is swallowed so it does not also open the task.
 */
export function usePointerDrag<T>(handlers: PointerDragHandlers<T>) {
  const latest = useRef(handlers);
  latest.current = handlers;
  const cleanup = useRef<(() => void) | null>(null);
  useEffect(() => () => cleanup.current?.(), []);

  return (event: ReactPointerEvent<HTMLElement>, item: T) => {
    if (event.button !== 0 || event.ctrlKey || event.metaKey) return;
    cleanup.current?.();
    const x0 = event.clientX;
    const y0 = event.clientY;
    let dragging = false;
    const move = (e: PointerEvent) => {
      const dx = e.clientX - x0;
      const dy = e.clientY - y0;
      if (!dragging && Math.hypot(dx, dy) < THRESHOLD_PX) return;
      if (!dragging) {
        dragging = true;
        document.body.classList.add('date-dragging');
      }
      e.preventDefault();
      latest.current.onMove(item, dx, dy, e);
    };
    const up = (e: PointerEvent) => {
      stop();
      if (!dragging) return;
      // The click that follows this pointerup belongs to the drag.
      window.addEventListener('click', swallow, { capture: true, once: true });
      setTimeout(() => window.removeEventListener('click', swallow, { capture: true }), 0);
      latest.current.onDrop(item, e.clientX - x0, e.clientY - y0, e);
    };
    const key = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      stop();
      if (dragging) latest.current.onCancel(item);
    };
    const swallow = (e: MouseEvent) => {
      e.preventDefault();
      e.stopPropagation();
    };
    const stop = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', cancel);
      window.removeEventListener('keydown', key);
      document.body.classList.remove('date-dragging');
      cleanup.current = null;
    };
    const cancel = () => {
      stop();
      if (dragging) latest.current.onCancel(item);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', cancel);
    window.addEventListener('keydown', key);
    cleanup.current = stop;
  };
}
