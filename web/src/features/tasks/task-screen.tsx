import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { CustomField, Task, TaskActivity as Activity } from '../../lib/api-types.ts';
import { ApiError } from '../../lib/http.ts';
import { CustomFieldInput, customValueText } from '../custom-fields/custom-field-input.tsx';
import { useCustomFields, useProject, useProjectConfig, type ProjectConfig } from '../projects/use-project.ts';
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
} from './api.ts';
import { Attachments, Links, TimeEntries } from './task-extras.tsx';
import {
  ErrorNote,
  Field,
  Form,
  IdSelect,
  Markdown,
  SaveCancel,
  Spinner,
  errorNotice,
  formatDate,
  formatDateTime,
  useNotify,
} from '../../ui/index.ts';

/** The fields the edit form changes, as the API takes them. */
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
type SetField = <F extends Editable>(field: F, value: Draft[F]) => void;

const pick = (task: Task): Draft => Object.fromEntries(EDITABLE.map((f) => [f, task[f]])) as Draft;
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Custom field values of `next` that differ from `prev` (a cleared one as null): only those are sent. */
function changedValues(next: Values, prev: Values): Values {
  const ids = new Set([...Object.keys(next), ...Object.keys(prev)]);
  return Object.fromEntries([...ids].filter((id) => !same(next[id], prev[id])).map((id) => [id, next[id] ?? null]));
}

/** What an edit changes, as the body of the PUT. */
function changesOf(draft: Draft, base: Task): Partial<Draft> {
  const changes: Partial<Draft> = {};
  for (const f of EDITABLE) {
    if (f === 'custom_fields') {
      const values = changedValues(draft.custom_fields, base.custom_fields);
      if (Object.keys(values).length) changes.custom_fields = values;
    } else if (!same(draft[f], base[f])) Object.assign(changes, { [f]: draft[f] });
  }
  return changes;
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

type Loaded = LoadedTask;
type StoreTask = (task: Task, etag: string | null) => void;

/** Puts a saved task in the cache and refreshes what shows it elsewhere: its project's tasks and its history. */
function useStoreTask(): StoreTask {
  const client = useQueryClient();
  return (task, etag) => {
    client.setQueryData(taskKeys.task(task.key), { task, etag });
    void client.invalidateQueries({ queryKey: taskKeys.lists(task.project) });
    void client.invalidateQueries({ queryKey: taskKeys.activities(task.key) });
  };
}

/** The edit form's draft, saved against the version it started from; a save refused because the task moved on becomes a conflict. */
function useTaskEdit(taskKey: string, loaded: Loaded | undefined, store: StoreTask) {
  const client = useQueryClient();
  const notify = useNotify();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [base, setBase] = useState<Loaded | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [saveError, setSaveError] = useState<unknown>(null);

  const startEdit = () => {
    if (!loaded) return;
    setBase(loaded);
    setDraft(pick(loaded.task));
    setConflict(null);
    setSaveError(null);
    setEditing(true);
  };
  useEffect(() => {
    const onEdit = () => startEdit();
    window.addEventListener('tt:edit', onEdit);
    return () => window.removeEventListener('tt:edit', onEdit);
  });

  const save = async (changes: Partial<Draft>, etag: string | null, from: Task) => {
    setSaveError(null);
    try {
      const result = await updateTask(taskKey, changes, etag);
      store(result.task, result.etag);
      setEditing(false);
      setConflict(null);
      notify({ kind: 'info', message: `Saved ${taskKey}.` });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'PRECONDITION_FAILED') {
        const fresh = await fetchTask(taskKey);
        client.setQueryData(taskKeys.task(taskKey), fresh);
        setConflict({ mine: changes, base: from, current: fresh.task, currentEtag: fresh.etag });
        return;
      }
      setSaveError(error);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft || !base) return;
    const changes = changesOf(draft, base.task);
    if (Object.keys(changes).length === 0) {
      setEditing(false);
      return;
    }
    void save(changes, base.etag, base.task);
  };

  const discard = () => {
    setConflict(null);
    setEditing(false);
  };

  return { editing, setEditing, draft, setDraft, conflict, saveError, startEdit, save, onSubmit, discard };
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

export function TaskScreen({ taskKey }: { taskKey: string }) {
  const query = useTask(taskKey);
  const projectKey = taskKey.split('-')[0]!;
  const { project } = useProject(projectKey);
  const config = useProjectConfig(project);
  const customFields = useCustomFields(project).data ?? [];
  const store = useStoreTask();
  const edit = useTaskEdit(taskKey, query.data, store);
  const status = useStatusMove(taskKey, query.data?.etag, store);

  if (query.isPending) return <Spinner />;
  if (query.error || !query.data) return <ErrorNote error={query.error} title={`Task ${taskKey}`} />;
  const { task } = query.data;
  const { conflict, draft } = edit;

  return (
    <article className="task-screen page" aria-labelledby="task-title">
      <TaskHeading task={task} projectName={project?.name} editing={edit.editing} onEdit={edit.startEdit} />
      {conflict ? (
        <ConflictPanel
          conflict={conflict}
          config={config}
          customFields={customFields}
          onReapply={() => void edit.save(conflict.mine, conflict.currentEtag, conflict.current)}
          onDiscard={edit.discard}
        />
      ) : null}
      <div className="task-grid">
        <div className="task-main">
          {edit.editing && draft ? (
            <EditForm
              draft={draft}
              setDraft={edit.setDraft}
              config={config}
              customFields={customFields}
              onSubmit={edit.onSubmit}
              onCancel={() => edit.setEditing(false)}
              error={edit.saveError}
            />
          ) : (
            <section aria-label="Description" className="description">
              {task.description ? <Markdown text={task.description} /> : <p className="muted">No description.</p>}
            </section>
          )}
          <Subtasks task={task} />
          <Links taskKey={task.key} />
          <Comments taskKey={task.key} />
          <Attachments taskKey={task.key} />
          <TimeEntries taskKey={task.key} projectKey={task.project} config={config} />
          <History taskKey={task.key} config={config} customFields={customFields} />
        </div>
        <TaskDetails
          task={task}
          config={config}
          customFields={customFields}
          moving={status.isPending}
          onMove={(to) => status.mutate(to)}
        />
      </div>
    </article>
  );
}

/** The breadcrumb back to the board, the task's key and title, and the Edit button while not editing. */
function TaskHeading({
  task,
  projectName,
  editing,
  onEdit,
}: {
  task: Task;
  projectName: string | undefined;
  editing: boolean;
  onEdit: () => void;
}) {
  return (
    <>
      <nav aria-label="Breadcrumb" className="crumbs">
        <Link href={`/p/${task.project}/board`}>{projectName ?? task.project}</Link> / <span>{task.key}</span>
      </nav>
      <header className="screen-head">
        <h1 id="task-title">
          <span className="muted">{task.key}</span> {task.title}
        </h1>
        {!editing ? (
          <button type="button" onClick={onEdit}>
            Edit <kbd>e</kbd>
          </button>
        ) : null}
      </header>
    </>
  );
}

/** The side panel: the status, changed in place among the moves the workflow allows, then every field's value and following. */
function TaskDetails({
  task,
  config,
  customFields,
  moving,
  onMove,
}: {
  task: Task;
  config: ProjectConfig;
  customFields: CustomField[];
  moving: boolean;
  onMove: (to: string) => void;
}) {
  const reachable = config.reachable(task.status);
  const statusOptions = config.statuses.filter(
    (s) => s.name === task.status || reachable === null || reachable.has(s.name),
  );
  return (
    <aside className="task-side" aria-label="Details">
      <div className="field">
        <label htmlFor="task-status">Status</label>
        <select id="task-status" value={task.status} disabled={moving} onChange={(e) => onMove(e.target.value)}>
          {statusOptions.map((s) => (
            <option key={s.id} value={s.name}>
              {s.name}
            </option>
          ))}
        </select>
        <small className="hint">Only the moves the workflow allows are offered.</small>
      </div>
      <dl className="facts">
        <dt>Type</dt>
        <dd>{task.task_type}</dd>
        <dt>Priority</dt>
        <dd>{task.priority}</dd>
        <dt>Assignee</dt>
        <dd>{task.assignee != null ? config.memberName(task.assignee) : 'Unassigned'}</dd>
        <dt>Due</dt>
        <dd>{task.due_date ? formatDate(task.due_date) : '—'}</dd>
        <dt>Labels</dt>
        <dd>{task.labels.length ? task.labels.join(', ') : '—'}</dd>
        <dt>Sprint</dt>
        <dd>{config.sprints.find((s) => s.id === task.sprint)?.name ?? '—'}</dd>
        <dt>Milestone</dt>
        <dd>{config.milestones.find((m) => m.id === task.milestone)?.name ?? '—'}</dd>
        <dt>Parent</dt>
        <dd>{task.parent ? <Link href={`/t/${task.parent}`}>{task.parent}</Link> : '—'}</dd>
        {customFields.map((f) => (
          <CustomFact key={f.id} field={f} value={task.custom_fields[String(f.id)]} config={config} />
        ))}
        <dt>Time spent</dt>
        <dd>{task.time_spent_minutes} min</dd>
        <dt>Updated</dt>
        <dd>{formatDateTime(task.updated_at)}</dd>
      </dl>
      <Follow taskKey={task.key} />
    </aside>
  );
}

function CustomFact({ field, value, config }: { field: CustomField; value: unknown; config: ProjectConfig }) {
  const text = customValueText(field, value, config);
  return (
    <>
      <dt>{field.name}</dt>
      <dd>
        {field.type === 'url' && text !== '—' ? (
          <a href={text} rel="noopener noreferrer nofollow" target="_blank">
            {text}
          </a>
        ) : (
          text
        )}
      </dd>
    </>
  );
}

function EditForm({
  draft,
  setDraft,
  config,
  customFields,
  onSubmit,
  onCancel,
  error,
}: {
  draft: Draft;
  setDraft: (d: Draft) => void;
  config: ProjectConfig;
  customFields: CustomField[];
  onSubmit: (e: FormEvent) => void;
  onCancel: () => void;
  error: unknown;
}) {
  const set: SetField = <F extends Editable>(field: F, value: Draft[F]) => setDraft({ ...draft, [field]: value });
  return (
    <form className="stack edit-form" onSubmit={onSubmit} onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <Field label="Title">
        {(id) => (
          <input
            id={id}
            required
            maxLength={500}
            value={draft.title}
            onChange={(e) => set('title', e.target.value)}
            autoFocus
          />
        )}
      </Field>
      <DescriptionEditor text={draft.description} onChange={(text) => set('description', text)} />
      <DraftFields draft={draft} set={set} config={config} />
      {customFields.length ? (
        <fieldset className="custom-fields">
          <legend>Custom fields</legend>
          <div className="grid-2">
            {customFields.map((f) => (
              <CustomFieldInput
                key={f.id}
                field={f}
                config={config}
                value={draft.custom_fields[String(f.id)] ?? null}
                onChange={(value) => set('custom_fields', { ...draft.custom_fields, [String(f.id)]: value })}
              />
            ))}
          </div>
        </fieldset>
      ) : null}
      <datalist id="label-names">
        {config.labels.map((l) => (
          <option key={l.id} value={l.name} />
        ))}
      </datalist>
      <ErrorNote error={error} />
      <SaveCancel onCancel={onCancel} />
    </form>
  );
}

/** The description as Markdown, written in a textarea or previewed as it will show. */
function DescriptionEditor({ text, onChange }: { text: string; onChange: (text: string) => void }) {
  const [preview, setPreview] = useState(false);
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
        <div className="preview">{text ? <Markdown text={text} /> : <p className="muted">Nothing to preview.</p>}</div>
      ) : (
        <textarea id="edit-description" rows={10} value={text} onChange={(e) => onChange(e.target.value)} />
      )}
      <small className="hint">Markdown: **bold**, _italic_, lists, `code`, links.</small>
    </div>
  );
}

/** The edit form's fields of fixed kinds, two to a row. */
function DraftFields({ draft, set, config }: { draft: Draft; set: SetField; config: ProjectConfig }) {
  return (
    <div className="grid-2">
      <Field label="Type">
        {(id) => (
          <select id={id} value={draft.task_type} onChange={(e) => set('task_type', e.target.value)}>
            {config.types.map((t) => (
              <option key={t.id}>{t.name}</option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Priority">
        {(id) => (
          <select id={id} value={draft.priority} onChange={(e) => set('priority', e.target.value)}>
            {config.priorities.map((p) => (
              <option key={p.id}>{p.name}</option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Assignee">
        {(id) => (
          <IdSelect
            id={id}
            value={draft.assignee}
            none="Unassigned"
            items={config.people}
            onChange={(v) => set('assignee', v)}
          />
        )}
      </Field>
      <Field label="Due date">
        {(id) => (
          <input
            id={id}
            type="date"
            value={draft.due_date ?? ''}
            onChange={(e) => set('due_date', e.target.value || null)}
          />
        )}
      </Field>
      <Field label="Sprint">
        {(id) => (
          <IdSelect
            id={id}
            value={draft.sprint}
            none="None"
            items={config.sprints}
            onChange={(v) => set('sprint', v)}
          />
        )}
      </Field>
      <Field label="Milestone">
        {(id) => (
          <IdSelect
            id={id}
            value={draft.milestone}
            none="None"
            items={config.milestones}
            onChange={(v) => set('milestone', v)}
          />
        )}
      </Field>
      <Field label="Labels" hint="Comma-separated names of the project's labels">
        {(id) => (
          <input
            id={id}
            list="label-names"
            value={draft.labels.join(', ')}
            onChange={(e) =>
              set(
                'labels',
                e.target.value
                  .split(',')
                  .map((s) => s.trim())
                  .filter(Boolean),
              )
            }
          />
        )}
      </Field>
      <Field label="Parent task">
        {(id) => (
          <input
            id={id}
            placeholder="e.g. WEB-3"
            value={draft.parent ?? ''}
            onChange={(e) => set('parent', e.target.value.trim() || null)}
          />
        )}
      </Field>
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

function Comments({ taskKey }: { taskKey: string }) {
  const client = useQueryClient();
  const [body, setBody] = useState('');
  const comments = useQuery(commentsQuery(taskKey));
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
          <li key={c.id}>
            <p className="meta">
              <strong>{c.author?.name ?? 'Someone'}</strong>{' '}
              <time dateTime={c.created_at}>{formatDateTime(c.created_at)}</time>
              {c.edited ? <span className="muted"> (edited)</span> : null}
            </p>
            <Markdown text={c.body} />
          </li>
        ))}
      </ol>
      <Form className="stack" onSubmit={() => body.trim() && add.mutate()}>
        <Field label="Add a comment">
          {(id) => <textarea id={id} rows={3} value={body} onChange={(e) => setBody(e.target.value)} />}
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
            <span className="muted">{formatDateTime(a.created_at)}</span> {a.actor?.name ?? 'Someone'}{' '}
            {a.action === 'updated' && a.field ? <Changed {...describeChange(a, config, customFields)} /> : a.action}
          </li>
        ))}
      </ol>
    </section>
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
