import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
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

let noticeSeq = 0;
/** Notices stack in one polite live region; errors stay until dismissed, the rest fade after 6 s. */
export function Notices({
  children,
  bind,
}: {
  children: ReactNode;
  bind?: (notify: (n: Omit<Notice, 'id'>) => void) => void;
}) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const notify = useCallback((notice: Omit<Notice, 'id'>) => {
    const id = ++noticeSeq;
    setNotices((list) => [...list.slice(-4), { ...notice, id }]);
    if (notice.kind !== 'error') setTimeout(() => setNotices((list) => list.filter((n) => n.id !== id)), 6000);
  }, []);
  useEffect(() => bind?.(notify), [bind, notify]);
  return (
    <NoticeContext.Provider value={notify}>
      {children}
      <div className="notices" role="status" aria-live="polite">
        {notices.map((n) => (
          <div key={n.id} className={`notice notice-${n.kind}`}>
            <span>
              {n.message}
              {n.requestId ? <span className="request-id"> (request id {n.requestId})</span> : null}
            </span>
            <button
              type="button"
              className="link"
              aria-label="Dismiss"
              onClick={() => setNotices((list) => list.filter((x) => x.id !== n.id))}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </NoticeContext.Provider>
  );
}
