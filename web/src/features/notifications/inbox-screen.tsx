import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import type { Notification, NotificationReason } from '../../lib/api-types.ts';
import { ErrorNote, Spinner, formatDateTime } from '../../ui/index.ts';
import { inboxQuery, markRead, notificationKeys, reasonLabel, type InboxFilter } from './api.ts';

interface Group {
  /** The task's key, or null for the notifications about no task. */
  key: string | null;
  title: string;
  items: Notification[];
}

/** Notifications grouped by their task, the group of the newest first, in the order they came. */
function byTask(list: Notification[]): Group[] {
  const groups = new Map<string, Group>();
  for (const n of list) {
    const id = n.task?.key ?? '';
    const group = groups.get(id) ?? { key: n.task?.key ?? null, title: n.task?.title ?? 'Workspace', items: [] };
    group.items.push(n);
    groups.set(id, group);
  }
  return [...groups.values()];
}

/** The task (at the comment); today's check-in, drafted, for the standup digest; else the workspace settings. */
const where = (n: Notification) =>
  n.task
    ? `/t/${n.task.key}${n.comment === null ? '' : `#comment-${n.comment}`}`
    : n.reason === 'standup_reminder'
      ? '/standups?tab=me&prefill=1'
      : '/settings/organization';

/** The reader's notifications, grouped by task: filter, open (which marks read), mark read. */
export function Inbox() {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [filter, setFilter] = useState<InboxFilter>({ unread: false, reason: '' });
  const list = useQuery(inboxQuery(filter));
  const read = useMutation({
    mutationFn: markRead,
    onSuccess: () => client.invalidateQueries({ queryKey: notificationKeys.all }),
  });
  const unread = (list.data ?? []).filter((n) => n.read_at === null);
  const open = (n: Notification) => {
    if (n.read_at === null) read.mutate({ ids: [n.id] });
    navigate(where(n));
  };
  return (
    <section className="page" aria-labelledby="inbox-title">
      <header className="screen-head">
        <h1 id="inbox-title">Inbox</h1>
        <label className="check">
          <input
            type="checkbox"
            checked={filter.unread}
            onChange={(e) => setFilter({ ...filter, unread: e.target.checked })}
          />{' '}
          Unread only
        </label>
        <label>
          <span className="sr-only">Reason</span>
          <select
            aria-label="Reason"
            value={filter.reason}
            onChange={(e) => setFilter({ ...filter, reason: e.target.value as NotificationReason | '' })}
          >
            <option value="">Every reason</option>
            {Object.entries(reasonLabel).map(([reason, label]) => (
              <option key={reason} value={reason}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" disabled={read.isPending} onClick={() => read.mutate({ all: true })}>
          Mark all read
        </button>
      </header>
      <ErrorNote error={list.error ?? read.error} />
      {list.isPending ? <Spinner /> : null}
      {list.data?.length === 0 ? (
        <p className="muted">{filter.unread || filter.reason ? 'Nothing matches.' : 'Nothing yet.'}</p>
      ) : null}
      {list.data && unread.length === 0 && list.data.length > 0 && !filter.unread ? (
        <p className="muted">All read.</p>
      ) : null}
      {byTask(list.data ?? []).map((group) => (
        <section key={group.key ?? ''} className="inbox-group" aria-label={group.key ?? group.title}>
          <h2>
            {group.key ? (
              <Link href={`/t/${group.key}`}>
                <span className="key">{group.key}</span> {group.title}
              </Link>
            ) : (
              group.title
            )}
          </h2>
          <ul className="inbox-items" role="list">
            {group.items.map((n) => (
              <li key={n.id} className={n.read_at === null ? 'unread' : undefined}>
                <button type="button" className="inbox-open" onClick={() => open(n)}>
                  {n.read_at === null ? <span className="sr-only">Unread: </span> : null}
                  {n.text}
                </button>
                <span className="muted inbox-meta">
                  <span className="chip">{reasonLabel[n.reason]}</span>{' '}
                  <time dateTime={n.created_at}>{formatDateTime(n.created_at)}</time>
                </span>
                {n.read_at === null ? (
                  <button
                    type="button"
                    className="link"
                    aria-label={`Mark read: ${n.text}`}
                    onClick={() => read.mutate({ ids: [n.id] })}
                  >
                    Mark read
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
