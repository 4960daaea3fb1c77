import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { TaskLink } from '../../lib/api-types.ts';
import { ApiError } from '../../lib/http.ts';
import type { ProjectConfig } from '../projects/use-project.ts';
import { ErrorNote, Field, Form, formatDate, formatDateTime } from '../../ui/index.ts';
import {
  addLink,
  attachmentUrl,
  attachmentsQuery,
  deleteAttachment,
  linksQuery,
  logTime,
  removeLink,
  taskKeys,
  timeEntriesQuery,
  uploadAttachment,
} from './api.ts';
import { standupKeys } from '../standups/api.ts';

const LINK_TYPES = [
  ['blocks', 'blocks'],
  ['blocked_by', 'is blocked by'],
  ['relates_to', 'relates to'],
  ['duplicates', 'duplicates'],
  ['duplicated_by', 'is duplicated by'],
] as const;

/** Dependency links; a refused loop names the tasks that would form it. */
export function Links({ taskKey }: { taskKey: string }) {
  const client = useQueryClient();
  const [type, setType] = useState<TaskLink['type']>('blocks');
  const [other, setOther] = useState('');
  const links = useQuery(linksQuery(taskKey));
  const refresh = () => {
    // Both ends of a link show it.
    void client.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'task' && q.queryKey[2] === 'links' });
    void client.invalidateQueries({ queryKey: standupKeys.blockers });
  };
  const add = useMutation({
    mutationFn: () => addLink(taskKey, other.trim().toUpperCase(), type),
    meta: { quiet: true },
    onSuccess: () => {
      setOther('');
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => removeLink(taskKey, id),
    onSuccess: refresh,
  });
  const cycle =
    add.error instanceof ApiError && Array.isArray(add.error.details.path)
      ? (add.error.details.path as string[])
      : null;
  return (
    <section aria-labelledby="links-title">
      <h2 id="links-title">Links</h2>
      <ErrorNote error={links.error ?? remove.error} />
      <ul className="plain">
        {links.data?.map((link) => (
          <li key={link.id}>
            {LINK_TYPES.find(([t]) => t === link.type)?.[1]} <Link href={`/t/${link.task.key}`}>{link.task.key}</Link>{' '}
            {link.task.title} <span className="chip">{link.task.status}</span>{' '}
            <button type="button" className="link" onClick={() => remove.mutate(link.id)}>
              Remove link to {link.task.key}
            </button>
          </li>
        ))}
      </ul>
      <Form onSubmit={() => add.mutate()}>
        <Field label="This task">
          {(id) => (
            <select id={id} value={type} onChange={(e) => setType(e.target.value as TaskLink['type'])}>
              {LINK_TYPES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Other task">
          {(id) => (
            <input id={id} required placeholder="WEB-7" value={other} onChange={(e) => setOther(e.target.value)} />
          )}
        </Field>
        <button type="submit" disabled={add.isPending}>
          Add link
        </button>
      </Form>
      <ErrorNote error={add.error} />
      {cycle ? (
        <p className="error" role="alert">
          The loop it would close: {cycle.join(' → ')}
        </p>
      ) : null}
    </section>
  );
}

export function Attachments({ taskKey }: { taskKey: string }) {
  const client = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const files = useQuery(attachmentsQuery(taskKey));
  const remove = useMutation({
    mutationFn: deleteAttachment,
    onSuccess: () => client.invalidateQueries({ queryKey: taskKeys.attachments(taskKey) }),
  });
  const onPick = async () => {
    const file = input.current?.files?.[0];
    if (!file) return;
    setError(null);
    setProgress(0);
    try {
      await uploadAttachment(taskKey, file, setProgress);
      await client.invalidateQueries({ queryKey: taskKeys.attachments(taskKey) });
    } catch (e) {
      setError(e);
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <section aria-labelledby="attachments-title">
      <h2 id="attachments-title">Attachments</h2>
      <ErrorNote error={files.error ?? remove.error} />
      <ul className="plain">
        {files.data?.map((f) => (
          <li key={f.id}>
            <a href={attachmentUrl(f.id)} download={f.filename}>
              {f.filename}
            </a>{' '}
            <span className="muted">
              {Math.max(1, Math.round(f.size / 1024))} KB, {formatDateTime(f.created_at)}
            </span>{' '}
            <button type="button" className="link" onClick={() => remove.mutate(f.id)}>
              Delete {f.filename}
            </button>
          </li>
        ))}
      </ul>
      <Field label="Attach a file">
        {(id) => <input id={id} ref={input} type="file" onChange={() => void onPick()} disabled={progress !== null} />}
      </Field>
      {progress !== null ? (
        <progress max={1} value={progress} aria-label="Upload progress">
          {Math.round(progress * 100)}%
        </progress>
      ) : null}
      <ErrorNote error={error} />
    </section>
  );
}

export function TimeEntries({
  taskKey,
  projectKey,
  config,
}: {
  taskKey: string;
  projectKey: string;
  config: ProjectConfig;
}) {
  const client = useQueryClient();
  const [minutes, setMinutes] = useState('30');
  const [date, setDate] = useState(() => new Date().toISOString().slice(0, 10));
  const [note, setNote] = useState('');
  const entries = useQuery(timeEntriesQuery(taskKey));
  const log = useMutation({
    mutationFn: () => logTime(taskKey, { minutes: Number(minutes), date, note }),
    meta: { quiet: true },
    onSuccess: () => {
      setNote('');
      void client.invalidateQueries({ queryKey: taskKeys.time(taskKey) });
      void client.invalidateQueries({ queryKey: taskKeys.task(taskKey), exact: true });
      void client.invalidateQueries({ queryKey: taskKeys.lists(projectKey) });
    },
  });
  const who = (user: number | null) => (user == null ? 'a removed account' : config.memberName(user));
  return (
    <section aria-labelledby="time-title">
      <h2 id="time-title">Time</h2>
      <ErrorNote error={entries.error} />
      <ul className="plain">
        {entries.data?.map((e) => (
          <li key={e.id}>
            {e.minutes} min on {formatDate(e.date)} by {who(e.user)}
            {e.note ? ` — ${e.note}` : ''}
          </li>
        ))}
      </ul>
      <Form onSubmit={() => log.mutate()}>
        <Field label="Minutes">
          {(id) => (
            <input
              id={id}
              type="number"
              min={1}
              max={1440}
              required
              value={minutes}
              onChange={(e) => setMinutes(e.target.value)}
            />
          )}
        </Field>
        <Field label="Day">
          {(id) => <input id={id} type="date" required value={date} onChange={(e) => setDate(e.target.value)} />}
        </Field>
        <Field label="Note">
          {(id) => <input id={id} value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />}
        </Field>
        <button type="submit" disabled={log.isPending}>
          Log time
        </button>
      </Form>
      <ErrorNote error={log.error} />
    </section>
  );
}
