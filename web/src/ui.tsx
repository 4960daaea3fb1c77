import { createContext, useCallback, useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { ApiError } from './api.ts';

/** A failed call as the person sees it: the service's message and the request id to quote. */
export function ErrorNote({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const api = error instanceof ApiError ? error : null;
  return (
    <div className="error" role="alert">
      {title ? <strong>{title}: </strong> : null}
      {api ? api.message : error instanceof Error ? error.message : String(error)}
      {api?.requestId ? <span className="request-id"> (request id {api.requestId})</span> : null}
    </div>
  );
}

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

/** A modal dialog on the native <dialog> element: focus trap, Escape and backdrop come with it. */
export function Dialog({
  open,
  onClose,
  title,
  children,
  wide,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={wide ? 'dialog wide' : 'dialog'}
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={onClose}
    >
      {open ? (
        <>
          <header className="dialog-head">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="link" aria-label="Close" onClick={onClose}>
              ×
            </button>
          </header>
          {children}
        </>
      ) : null}
    </dialog>
  );
}

export function Field({
  label,
  children,
  hint,
}: {
  label: string;
  children: (id: string) => ReactNode;
  hint?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
      {hint ? <small className="hint">{hint}</small> : null}
    </div>
  );
}

/** Markdown rendered by marked and cleaned by DOMPurify: descriptions and comments are written by anyone. */
export function Markdown({ text }: { text: string }) {
  const html = DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true, breaks: true }));
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <p className="muted" role="status">
      {label}…
    </p>
  );
}

export const categoryLabel = { todo: 'To do', in_progress: 'In progress', done: 'Done' } as const;

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  return new Date(iso.length === 10 ? `${iso}T00:00:00` : iso).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  });
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A form that stays on the page: submitting runs `onSubmit` instead of navigating. */
export function Form({
  onSubmit,
  className = 'inline-form',
  children,
  label,
}: {
  onSubmit: () => void;
  className?: string;
  children: ReactNode;
  label?: string;
}) {
  return (
    <form
      className={className}
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** A table that scrolls sideways on a phone; `actions` adds a last column of buttons without a visible heading. */
export function Table({
  columns,
  actions,
  children,
  caption,
}: {
  columns: string[];
  actions?: boolean;
  children: ReactNode;
  caption?: string;
}) {
  return (
    <div className="table-wrap">
      <table>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
            {actions ? (
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A secret the service shows once (token, signing secret, invitation link). */
export function SecretNote({ children }: { children: ReactNode }) {
  return (
    <p className="secret" role="status">
      {children}
    </p>
  );
}

/** A row's Edit and Delete buttons; Delete asks first (`question`) and names the row in every button. */
export function EditDelete({
  name,
  question,
  onEdit,
  onDelete,
  pending,
}: {
  name: string;
  question: string;
  onEdit: () => void;
  onDelete: () => void;
  pending: boolean;
}) {
  const [asking, setAsking] = useState(false);
  if (asking)
    return (
      <span className="actions" role="group" aria-label={`Delete ${name}?`}>
        <span>{question}</span>
        <button type="button" className="danger" onClick={onDelete} disabled={pending}>
          Yes, delete {name}
        </button>
        <button type="button" onClick={() => setAsking(false)}>
          Keep it
        </button>
      </span>
    );
  return (
    <span className="actions">
      <button type="button" onClick={onEdit}>
        Edit {name}
      </button>
      <button type="button" className="link" onClick={() => setAsking(true)}>
        Delete {name}
      </button>
    </span>
  );
}

/** Save (submits the form) and Cancel, as every edit form ends. */
export function SaveCancel({ pending, onCancel }: { pending?: boolean; onCancel: () => void }) {
  return (
    <div className="actions">
      <button type="submit" className="primary" disabled={pending}>
        Save
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/** A choice among items by id, the first option meaning none; `onChange` gets the id or null. */
export function IdSelect({
  id,
  value,
  items,
  none,
  onChange,
}: {
  id: string;
  value: unknown;
  items: Array<{ id: number; name: string }>;
  none: string;
  onChange: (id: number | null) => void;
}) {
  return (
    <select
      id={id}
      value={value == null ? '' : String(value)}
      onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
    >
      <option value="">{none}</option>
      {items.map((item) => (
        <option key={item.id} value={item.id}>
          {item.name}
        </option>
      ))}
    </select>
  );
}
