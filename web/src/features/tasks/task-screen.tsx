import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { CustomField, Task, TaskActivity as Activity } from '../../lib/api-types.ts';
import { ApiError } from '../../lib/http.ts';
import { customValueText } from '../custom-fields/custom-field-input.tsx';
import {
  useCustomFields,
  useProject,
  useProjectConfig,
  useProjectKeys,
  type ProjectConfig,
} from '../projects/use-project.ts';
import { useMe } from '../session/session-provider.tsx';
import {
  activitiesQuery,
  addComment,
  commentsQuery,
  fetchTask,
  followersQuery,
  setFollowing,
  subtasksQuery,
  taskKeys,
  taskQuery,
  updateTask,
  type LoadedTask,
  type TaskChanges,
} from './api.ts';
import { Attachments, Links, TimeEntries } from './task-extras.tsx';
import { Markdown } from '../../ui/markdown.tsx';
import { MarkdownInput } from './markdown-input.tsx';
import { TaskFields, TitleInPlace } from './task-fields.tsx';
import { storeTask } from './store.ts';
import { ErrorNote, Field, Form, SaveCancel, Spinner, errorNotice, formatDateTime, useNotify } from '../../ui/index.ts';

/** The fields edited in place, as the API takes them. */
const EDITABLE = [
  'title',
  'description',
  'task_type',
  'priority',
  'assignee',
  'due_date',
  'labels',
  'milestone',
  'sprint',
  'parent',
  'custom_fields',
] as const;
type Editable = (typeof EDITABLE)[number];
type Draft = Pick<Task, Editable>;
type Values = Task['custom_fields'];

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Custom field values of `next` that differ from `prev` (a cleared one as null): only those are sent. */
function changedValues(next: Values, prev: Values): Values {
  const ids = new Set([...Object.keys(next), ...Object.keys(prev)]);
  return Object.fromEntries([...ids].filter((id) => !same(next[id], prev[id])).map((id) => [id, next[id] ?? null]));
}

const fieldLabel: Record<Editable | 'status', string> = {
  title: 'Title',
  description: 'Description',
  task_type: 'Type',
  priority: 'Priority',
  assignee: 'Assignee',
  due_date: 'Due date',
  labels: 'Labels',
  milestone: 'Milestone',
  sprint: 'Sprint',
  parent: 'Parent',
  custom_fields: 'Custom fields',
  status: 'Status',
};

export function useTask(key: string) {
  return useQuery(taskQuery(key));
}

interface Conflict {
  mine: Partial<Draft>;
  base: Task;
  current: Task;
  currentEtag: string | null;
}

type StoreTask = (task: Task, etag: string | null) => void;

function useStoreTask(): StoreTask {
  const client = useQueryClient();
  return (task, etag) => storeTask(client, task, etag);
}

/** Saves changes against a version; a save refused because the task moved on becomes a conflict to resolve. */
function useTaskSave(taskKey: string, store: StoreTask) {
  const client = useQueryClient();
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [saveError, setSaveError] = useState<unknown>(null);

  const save = async (changes: TaskChanges, etag: string | null, from: Task) => {
    setSaveError(null);
    try {
      const result = await updateTask(taskKey, changes, etag);
      store(result.task, result.etag);
      setConflict(null);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'PRECONDITION_FAILED') {
        const fresh = await fetchTask(taskKey);
        client.setQueryData(taskKeys.task(taskKey), fresh);
        setConflict({ mine: changes as Partial<Draft>, base: from, current: fresh.task, currentEtag: fresh.etag });
        return;
      }
      setSaveError(error);
    }
  };

  // Field changes go one after another, each against the version the one before produced: two
  // quick picks must not race each other into a conflict with ourselves.
  const queue = useRef<Promise<void>>(Promise.resolve());
  const saveField = (changes: TaskChanges) => {
    queue.current = queue.current.then(() => {
      const loaded = client.getQueryData<LoadedTask>(taskKeys.task(taskKey));
      return loaded ? save(changes, loaded.etag, loaded.task) : undefined;
    });
  };

  return { conflict, saveError, save, saveField, discard: () => setConflict(null) };
}

/** A move to another status, sent at once against the version shown; a refused move is told and the task reloaded. */
function useStatusMove(taskKey: string, etag: string | null | undefined, store: StoreTask) {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: (to: string) => updateTask(taskKey, { status: to }, etag),
    meta: { quiet: true },
    onSuccess: (result) => store(result.task, result.etag),
    onError: (error) => {
      notify(errorNotice(error));
      void client.invalidateQueries({ queryKey: taskKeys.task(taskKey), exact: true });
    },
  });
}

/** The task as a page of its own (its URL, `/t/KEY`). */
export function TaskScreen({ taskKey }: { taskKey: string }) {
  return <TaskView taskKey={taskKey} />;
}

/** A task's fields, activity and extras: the page at `/t/KEY`, and the panel beside a board or list. */
export function TaskView({ taskKey, inPanel = false }: { taskKey: string; inPanel?: boolean }) {
  const query = useTask(taskKey);
  const projectKey = taskKey.split('-')[0]!;
  const { project } = useProject(projectKey);
  const config = useProjectConfig(project);
  const customFields = useCustomFields(project).data ?? [];
  const store = useStoreTask();
  const edit = useTaskSave(taskKey, store);
  const status = useStatusMove(taskKey, query.data?.etag, store);

  if (query.isPending) return <Spinner />;
  if (query.error || !query.data) return <ErrorNote error={query.error} title={`Task ${taskKey}`} />;
  const loaded = query.data;
  const { task } = loaded;
  const { conflict } = edit;

  return (
    <article
      className={inPanel ? 'task-view' : 'task-screen page'}
      aria-labelledby={`title-${task.key}`}
      data-open-task={task.key}
    >
      {!inPanel ? (
        <nav aria-label="Breadcrumb" className="crumbs">
          <Link href={`/p/${task.project}/board`}>{project?.name ?? task.project}</Link> / <span>{task.key}</span>
        </nav>
      ) : null}
      <header className="screen-head">
        <TitleInPlace loaded={loaded} onSave={(changes, etag, from) => void edit.save(changes, etag, from)} />
      </header>
      {task.parent ? (
        <p className="task-parent">
          Subtask of <Link href={`/t/${task.parent}`}>{task.parent}</Link>
        </p>
      ) : null}
      {conflict ? (
        <ConflictPanel
          conflict={conflict}
          config={config}
          customFields={customFields}
          onReapply={() => void edit.save(conflict.mine, conflict.currentEtag, conflict.current)}
          onDiscard={edit.discard}
        />
      ) : null}
      <ErrorNote error={edit.saveError} title="Not saved" />
      <div className="task-grid">
        <aside className="task-side" aria-label="Details">
          <TaskFields
            task={task}
            config={config}
            customFields={customFields}
            moving={status.isPending}
            onMove={(to) => status.mutate(to)}
            onSave={edit.saveField}
          />
          <Follow taskKey={task.key} />
        </aside>
        <div className="task-main">
          <DescriptionInPlace loaded={loaded} onSave={(changes, etag, from) => void edit.save(changes, etag, from)} />
          <Subtasks task={task} />
          <Links taskKey={task.key} />
          <Comments taskKey={task.key} projectKey={task.project} />
          <Attachments taskKey={task.key} />
          <TimeEntries taskKey={task.key} projectKey={task.project} config={config} />
          <History taskKey={task.key} config={config} customFields={customFields} />
        </div>
      </div>
    </article>
  );
}

/** The description as it shows; Edit opens the editor in its place, saved against the version it started from. */
function DescriptionInPlace({
  loaded,
  onSave,
}: {
  loaded: LoadedTask;
  onSave: (changes: TaskChanges, etag: string | null, from: Task) => void;
}) {
  const [editing, setEditing] = useState<{ text: string; from: LoadedTask } | null>(null);
  const projects = useProjectKeys();
  const { task } = loaded;
  if (editing)
    return (
      <Form
        className="stack description-edit"
        onSubmit={() => {
          if (editing.text !== editing.from.task.description)
            onSave({ description: editing.text }, editing.from.etag, editing.from.task);
          setEditing(null);
        }}
      >
        <DescriptionEditor
          text={editing.text}
          projectKey={task.project}
          onChange={(text) => setEditing({ ...editing, text })}
        />
        <SaveCancel onCancel={() => setEditing(null)} />
      </Form>
    );
  return (
    <section aria-label="Description" className="description">
      {task.description ? (
        <Markdown text={task.description} projects={projects} />
      ) : (
        <p className="muted">No description.</p>
      )}
      <button type="button" className="link" onClick={() => setEditing({ text: task.description, from: loaded })}>
        Edit description
      </button>
    </section>
  );
}

/** The description as Markdown, written in a textarea or previewed as it will show. */
function DescriptionEditor({
  text,
  projectKey,
  onChange,
}: {
  text: string;
  projectKey: string;
  onChange: (text: string) => void;
}) {
  const [preview, setPreview] = useState(false);
  const projects = useProjectKeys();
  return (
    <div className="field">
      <div className="field-row">
        <label htmlFor="edit-description">Description</label>
        <div role="group" aria-label="Description mode" className="segmented">
          <button type="button" aria-pressed={!preview} onClick={() => setPreview(false)}>
            Write
          </button>
          <button type="button" aria-pressed={preview} onClick={() => setPreview(true)}>
            Preview
          </button>
        </div>
      </div>
      {preview ? (
        <div className="preview">
          {text ? <Markdown text={text} projects={projects} /> : <p className="muted">Nothing to preview.</p>}
        </div>
      ) : (
        <MarkdownInput id="edit-description" rows={10} value={text} onChange={onChange} projectKey={projectKey} />
      )}
      <small className="hint">Markdown: **bold**, _italic_, lists, `code`, links; @ mentions, task keys link.</small>
    </div>
  );
}

function show(field: Editable | 'status', value: unknown, config: ProjectConfig): string {
  if (value == null || value === '') return '—';
  if (field === 'assignee') return config.memberName(value as number);
  if (field === 'sprint') return config.sprints.find((s) => s.id === value)?.name ?? String(value);
  if (field === 'milestone') return config.milestones.find((m) => m.id === value)?.name ?? String(value);
  if (Array.isArray(value)) return value.join(', ') || '—';
  const text = String(value);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/** A save refused because the task changed meanwhile: what changed elsewhere, and a choice. */
function ConflictPanel({
  conflict,
  config,
  customFields,
  onReapply,
  onDiscard,
}: {
  conflict: Conflict;
  config: ProjectConfig;
  customFields: CustomField[];
  onReapply: () => void;
  onDiscard: () => void;
}) {
  const { base, current, mine } = conflict;
  const rows: Array<{ label: string; base: string; current: string; mine: string }> = [...EDITABLE, 'status' as const]
    .filter((f) => f !== 'custom_fields' && !same(base[f], current[f]))
    .map((f) => ({
      label: fieldLabel[f],
      base: show(f, base[f], config),
      current: show(f, current[f], config),
      mine: f in mine ? show(f, mine[f as Editable], config) : '(unchanged)',
    }));
  for (const id of Object.keys(changedValues(current.custom_fields, base.custom_fields))) {
    const field = customFields.find((f) => String(f.id) === id);
    const text = (v: unknown) => (field ? customValueText(field, v, config) : JSON.stringify(v ?? null));
    const yours = mine.custom_fields && id in mine.custom_fields ? text(mine.custom_fields[id]) : '(unchanged)';
    rows.push({
      label: field?.name ?? `Field ${id}`,
      base: text(base.custom_fields[id]),
      current: text(current.custom_fields[id]),
      mine: yours,
    });
  }
  return (
    <section className="conflict" role="alert" aria-labelledby="conflict-title">
      <h2 id="conflict-title">Someone changed this task while you were editing</h2>
      {rows.length ? (
        <table>
          <caption className="sr-only">Changes made elsewhere</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">When you started</th>
              <th scope="col">Now</th>
              <th scope="col">Yours</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.label}>
                <th scope="row">{r.label}</th>
                <td>{r.base}</td>
                <td>{r.current}</td>
                <td>{r.mine}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>Its version moved on without changing any field you see here.</p>
      )}
      <div className="actions">
        <button type="button" className="primary" onClick={onReapply}>
          Re-apply my changes
        </button>
        <button type="button" onClick={onDiscard}>
          Discard mine
        </button>
      </div>
    </section>
  );
}

function Subtasks({ task }: { task: Task }) {
  const subtasks = useQuery(subtasksQuery(task.key));
  if (!subtasks.data?.length) return <ErrorNote error={subtasks.error} />;
  return (
    <section aria-labelledby="subtasks-title">
      <h2 id="subtasks-title">Subtasks</h2>
      <ul className="plain">
        {subtasks.data.map((s) => (
          <li key={s.key}>
            <Link href={`/t/${s.key}`}>{s.key}</Link> {s.title} <span className="chip">{s.status}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Comments({ taskKey, projectKey }: { taskKey: string; projectKey: string }) {
  const client = useQueryClient();
  const [body, setBody] = useState('');
  const comments = useQuery(commentsQuery(taskKey));
  const projects = useProjectKeys();
  // Opened at a comment (from the inbox or an e-mail): show it once the comments are there.
  const target = typeof location === 'undefined' ? '' : location.hash;
  const loaded = comments.data !== undefined;
  useEffect(() => {
    if (loaded && target.startsWith('#comment-')) document.getElementById(target.slice(1))?.scrollIntoView();
  }, [loaded, target]);
  const add = useMutation({
    mutationFn: () => addComment(taskKey, body),
    meta: { quiet: true },
    onSuccess: () => {
      setBody('');
      void client.invalidateQueries({ queryKey: taskKeys.comments(taskKey) });
      void client.invalidateQueries({ queryKey: taskKeys.activities(taskKey) });
    },
  });
  return (
    <section aria-labelledby="comments-title">
      <h2 id="comments-title">Comments</h2>
      <ErrorNote error={comments.error} />
      <ol className="comments">
        {comments.data?.map((c) => (
          <li key={c.id} id={`comment-${c.id}`} className={target === `#comment-${c.id}` ? 'target' : undefined}>
            <p className="meta">
              <strong>{c.author?.name ?? 'Someone'}</strong>{' '}
              <time dateTime={c.created_at}>{formatDateTime(c.created_at)}</time>
              {c.edited ? <span className="muted"> (edited)</span> : null}
            </p>
            <Markdown text={c.body} projects={projects} />
          </li>
        ))}
      </ol>
      <Form className="stack" onSubmit={() => body.trim() && add.mutate()}>
        <Field label="Add a comment">
          {(id) => <MarkdownInput id={id} rows={3} value={body} onChange={setBody} projectKey={projectKey} />}
        </Field>
        <ErrorNote error={add.error} />
        <div className="actions">
          <button type="submit" disabled={add.isPending || !body.trim()}>
            Comment
          </button>
        </div>
      </Form>
    </section>
  );
}

/** An activity entry's field and values as words; custom fields are `custom_fields.<id>`. */
function describeChange(a: Activity, config: ProjectConfig, customFields: CustomField[]) {
  const custom = /^custom_fields\.(\d+)$/.exec(a.field ?? '');
  if (custom) {
    const field = customFields.find((f) => String(f.id) === custom[1]);
    const text = (v: unknown) => (field ? customValueText(field, v, config) : JSON.stringify(v ?? null));
    return { label: field?.name ?? `custom field ${custom[1]}`, from: text(a.from), to: text(a.to) };
  }
  const field = a.field as Editable;
  return { label: fieldLabel[field] ?? a.field, from: show(field, a.from, config), to: show(field, a.to, config) };
}

function History({
  taskKey,
  config,
  customFields,
}: {
  taskKey: string;
  config: ProjectConfig;
  customFields: CustomField[];
}) {
  const activities = useQuery(activitiesQuery(taskKey));
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <ErrorNote error={activities.error} />
      <ol className="history">
        {activities.data?.map((a) => (
          <li key={a.id}>
            <span className="muted">{formatDateTime(a.created_at)}</span>{' '}
            {a.action === 'mentioned_in' ? (
              <MentionedIn to={a.to} />
            ) : (
              <>
                {a.actor?.name ?? 'Someone'}{' '}
                {a.action === 'updated' && a.field ? (
                  <Changed {...describeChange(a, config, customFields)} />
                ) : (
                  a.action
                )}
              </>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Another task's description or comment named this one (shown only to those who see that task). */
function MentionedIn({ to }: { to: unknown }) {
  const { task, comment } = to as { task: string; comment: number | null };
  return (
    <>
      Mentioned in <Link href={`/t/${task}${comment === null ? '' : `#comment-${comment}`}`}>{task}</Link>
    </>
  );
}

function Changed({ label, from, to }: { label: string; from: string; to: string }) {
  return (
    <>
      changed {label} from <q>{from}</q> to <q>{to}</q>
    </>
  );
}

function Follow({ taskKey }: { taskKey: string }) {
  const me = useMe();
  const client = useQueryClient();
  const followers = useQuery(followersQuery(taskKey));
  const following = followers.data?.some((f) => f.user === me.user.id) ?? false;
  const toggle = useMutation({
    mutationFn: () => setFollowing(taskKey, !following),
    onSuccess: () => client.invalidateQueries({ queryKey: taskKeys.followers(taskKey) }),
  });
  return (
    <div className="follow">
      <button
        type="button"
        aria-pressed={following}
        onClick={() => toggle.mutate()}
        disabled={toggle.isPending || followers.isPending}
      >
        {following ? 'Unfollow' : 'Follow'}
      </button>
      <span className="muted"> {followers.data?.length ?? 0} following</span>
    </div>
  );
}
