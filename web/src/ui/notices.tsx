import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../lib/http.ts';

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  message: string;
  requestId?: string | null;
}

const NoticeContext = createContext<(notice: Omit<Notice, 'id'>) => void>(() => {});
export const useNotify = () => useContext(NoticeContext);

export function errorNotice(error: unknown): Omit<Notice, 'id'> {
  if (error instanceof ApiError) return { kind: 'error', message: error.message, requestId: error.requestId };
  return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
}

/** How long a notice shows: an error long enough to read and copy its request id. */
export const NOTICE_MS = { info: 6_000, error: 15_000 } as const;

let noticeSeq = 0;
/**
 * Notices stack in one polite live region and leave by themselves (errors after 15 s, the rest
 * after 6 s) or with their ×; a pointer or focus on one holds them all, so nothing leaves
 * while it is being read or copied.
 */
export function Notices({
  children,
  bind,
}: {
  children: ReactNode;
  bind?: (notify: (n: Omit<Notice, 'id'>) => void) => void;
}) {
  const [notices, setNotices] = useState<Array<Notice & { until: number }>>([]);
  const [held, setHeld] = useState(false);
  const notify = useCallback((notice: Omit<Notice, 'id'>) => {
    const id = ++noticeSeq;
    setNotices((list) => [...list.slice(-4), { ...notice, id, until: Date.now() + NOTICE_MS[notice.kind] }]);
  }, []);
  useEffect(() => bind?.(notify), [bind, notify]);
  // A notice dismissed from its own × takes the focus with it and no blur follows.
  useEffect(() => {
    if (!notices.length) setHeld(false);
  }, [notices.length]);
  const dismiss = (id: number) => setNotices((list) => list.filter((x) => x.id !== id));

  // One timer for the notice that leaves first; while held, the deadlines move on with the clock.
  const heldSince = useRef<number | null>(null);
  useEffect(() => {
    if (held) {
      heldSince.current = Date.now();
      return;
    }
    if (heldSince.current !== null) {
      const pause = Date.now() - heldSince.current;
      heldSince.current = null;
      setNotices((list) => list.map((n) => ({ ...n, until: n.until + pause })));
      return;
    }
    if (!notices.length) return;
    const next = Math.min(...notices.map((n) => n.until));
    const timer = setTimeout(
      () => setNotices((list) => list.filter((n) => n.until > Date.now())),
      Math.max(0, next - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [notices, held]);

  return (
    <NoticeContext.Provider value={notify}>
      {children}
      <div
        className="notices"
        role="status"
        aria-live="polite"
        onPointerEnter={() => setHeld(true)}
        onPointerLeave={() => setHeld(false)}
        onFocus={() => setHeld(true)}
        onBlur={() => setHeld(false)}
      >
        {notices.map((n) => (
          <div key={n.id} className={`notice notice-${n.kind}`}>
            <span>
              {n.message}
              {n.requestId ? <span className="request-id"> (request id {n.requestId})</span> : null}
            </span>
            <button type="button" className="link" aria-label="Dismiss" onClick={() => dismiss(n.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </NoticeContext.Provider>
  );
}
