import { Suspense, lazy, useEffect, useRef } from 'react';
import { Link } from 'wouter';
import { Spinner } from '../../ui/index.ts';

// The task's editors (markdown, pickers, extras) load with the first task opened, not with the board.
const TaskView = lazy(() => import('./task-screen.tsx').then((m) => ({ default: m.TaskView })));

/** The task beside the board or list it was opened from; Escape or × closes it. */
export function TaskPanel({ taskKey, onClose }: { taskKey: string; onClose: () => void }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [taskKey]);
  return (
    <aside
      ref={ref}
      className="task-panel"
      aria-label={`Task ${taskKey}`}
      tabIndex={-1}
      onKeyDown={(e) => {
        const target = e.target as HTMLElement;
        if (e.key === 'Escape' && !['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) onClose();
      }}
    >
      <div className="task-panel-bar">
        <Link href={`/t/${taskKey}`}>Open as a page</Link>
        <button type="button" className="icon-button" aria-label="Close the task" onClick={onClose}>
          ×
        </button>
      </div>
      <Suspense fallback={<Spinner />}>
        <TaskView key={taskKey} taskKey={taskKey} inPanel />
      </Suspense>
    </aside>
  );
}
