import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { CustomField, Task } from '../../lib/api-types.ts';
import { post } from '../../lib/http.ts';
import { CustomFieldInput, customValueText } from '../custom-fields/custom-field-input.tsx';
import { projectKeys } from '../projects/api.ts';
import { useProject, type ProjectConfig } from '../projects/use-project.ts';
import { searchKeys } from '../search/api.ts';
import { get, qs } from '../../lib/http.ts';
import { Avatar, Picker, errorNotice, formatDateTime, useNotify } from '../../ui/index.ts';
import type { LoadedTask, TaskChanges } from './api.ts';
import { takeRequestedField } from './store.ts';

/** Saves `changes` against the version shown (If-Match); a refusal shows where the screen shows it. */
export type SaveFields = (changes: TaskChanges) => void;

/**
 * The task's fields, each edited where it is shown and saved as soon as it changes: status
 * among the moves the workflow allows, pickers with search for people, labels (created on the
 * fly), sprint, milestone and parent, plain inputs for the rest.
 */
export function TaskFields({
  task,
  config,
  customFields,
  moving,
  onMove,
  onSave,
}: {
  task: Task;
  config: ProjectConfig;
  customFields: CustomField[];
  moving: boolean;
  onMove: (to: string) => void;
  onSave: SaveFields;
}) {
  const client = useQueryClient();
  const notify = useNotify();
  const root = useRef<HTMLDivElement>(null);
  // `s` and `l` (app/shortcuts.ts) land here: the status select, or the labels picker opened.
  useEffect(() => {
    const focus = () => {
      const field = takeRequestedField();
      if (field === 'status') root.current?.querySelector<HTMLElement>('#task-status')?.focus();
      if (field === 'labels') root.current?.querySelector<HTMLElement>('[data-field="labels"] .picker-value')?.click();
    };
    focus();
    window.addEventListener('tt:field', focus);
    return () => window.removeEventListener('tt:field', focus);
  }, []);
  const reachable = config.reachable(task.status);
  const statusOptions = config.statuses.filter(
    (s) => s.name === task.status || reachable === null || reachable.has(s.name),
  );
  const createLabel = async (name: string) => {
    try {
      await post(`/api/v1/projects/${task.project}/labels/`, { name });
      await client.invalidateQueries({ queryKey: projectKeys.labels(task.project) });
      onSave({ labels: [...task.labels, name] });
    } catch (error) {
      notify({ ...errorNotice(error), message: `The label ${name} was not created: ${errorNotice(error).message}` });
    }
  };
  const byId = (items: Array<{ id: number; name: string }>, id: number | null) =>
    items.find((i) => i.id === id)?.name ?? null;
  const sprint = byId(config.sprints, task.sprint);
  const milestone = byId(config.milestones, task.milestone);
  const assignee = task.assignee != null ? config.memberName(task.assignee) : null;
  return (
    <div className="task-fields" ref={root}>
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
      <Picker
        label="Assignee"
        selected={[task.assignee == null ? 'none' : String(task.assignee)]}
        options={[
          { value: 'none', label: 'Unassigned', lead: <Avatar name={null} /> },
          ...config.people.map((p) => ({ value: String(p.id), label: p.name, lead: <Avatar name={p.name} /> })),
        ]}
        onChange={([v]) => onSave({ assignee: v === 'none' || v === undefined ? null : Number(v) })}
        display={
          <>
            <Avatar name={assignee} /> {assignee ?? 'Unassigned'}
          </>
        }
      />
      <Picker
        label="Labels"
        field="labels"
        multiple
        selected={task.labels}
        options={config.labels.map((l) => ({ value: l.name, label: l.name }))}
        onChange={(labels) => onSave({ labels })}
        onCreate={(name) => void createLabel(name)}
        placeholder="Search or create a label"
        display={
          task.labels.length ? (
            task.labels.map((l) => (
              <span key={l} className="label">
                {l}
              </span>
            ))
          ) : (
            <span className="muted">None</span>
          )
        }
      />
      <div className="field">
        <label htmlFor="task-priority">Priority</label>
        <select id="task-priority" value={task.priority} onChange={(e) => onSave({ priority: e.target.value })}>
          {config.priorities.map((p) => (
            <option key={p.id}>{p.name}</option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="task-type">Type</label>
        <select id="task-type" value={task.task_type} onChange={(e) => onSave({ task_type: e.target.value })}>
          {config.types.map((t) => (
            <option key={t.id}>{t.name}</option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="task-start">Start date</label>
        <input
          id="task-start"
          type="date"
          value={task.start_date ?? ''}
          max={task.due_date ?? undefined}
          onChange={(e) => onSave({ start_date: e.target.value || null })}
        />
      </div>
      <div className="field">
        <label htmlFor="task-due">Due date</label>
        <input
          id="task-due"
          type="date"
          value={task.due_date ?? ''}
          onChange={(e) => onSave({ due_date: e.target.value || null })}
        />
      </div>
      <EstimateField task={task} onSave={onSave} />
      <Picker
        label="Sprint"
        selected={[task.sprint == null ? 'none' : String(task.sprint)]}
        options={[
          { value: 'none', label: 'No sprint' },
          ...config.sprints.map((s) => ({ value: String(s.id), label: s.name })),
        ]}
        onChange={([v]) => onSave({ sprint: v === 'none' || v === undefined ? null : Number(v) })}
        display={sprint ?? <span className="muted">No sprint</span>}
      />
      <Picker
        label="Milestone"
        selected={[task.milestone == null ? 'none' : String(task.milestone)]}
        options={[
          { value: 'none', label: 'No milestone' },
          ...config.milestones.map((m) => ({ value: String(m.id), label: m.name })),
        ]}
        onChange={([v]) => onSave({ milestone: v === 'none' || v === undefined ? null : Number(v) })}
        display={milestone ?? <span className="muted">No milestone</span>}
      />
      <ParentPicker task={task} onSave={onSave} />
      {customFields.map((f) => (
        <CustomFieldInPlace key={f.id} field={f} task={task} config={config} onSave={onSave} />
      ))}
      <dl className="facts">
        <dt>Time spent</dt>
        <dd>{task.time_spent_minutes} min</dd>
        <dt>Updated</dt>
        <dd>{formatDateTime(task.updated_at)}</dd>
      </dl>
    </div>
  );
}

/** The estimate in the project's unit, saved when the field is left (not at every keystroke). */
function EstimateField({ task, onSave }: { task: Task; onSave: SaveFields }) {
  const { project } = useProject(task.project);
  const [text, setText] = useState(task.estimate === null ? '' : String(task.estimate));
  useEffect(() => setText(task.estimate === null ? '' : String(task.estimate)), [task.estimate]);
  const save = () => {
    const value = text.trim() === '' ? null : Number(text);
    if (value !== task.estimate && (value === null || Number.isFinite(value))) onSave({ estimate: value });
  };
  return (
    <div className="field">
      <label htmlFor="task-estimate">Estimate ({project?.estimate_unit ?? 'points'})</label>
      <input
        id="task-estimate"
        type="number"
        min={0}
        step="any"
        inputMode="decimal"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={save}
        onKeyDown={(e) => e.key === 'Enter' && save()}
      />
      {task.rollup ? (
        <small className="hint">
          With subtasks: {task.rollup.done_estimate} of {task.rollup.estimate} done
        </small>
      ) : null}
    </div>
  );
}

/** The parent, chosen among the project's tasks found by words or key as they are typed. */
function ParentPicker({ task, onSave }: { task: Task; onSave: SaveFields }) {
  const [text, setText] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(text.trim()), 150);
    return () => clearTimeout(timer);
  }, [text]);
  const found = useQuery({
    queryKey: [...searchKeys.results(debounced), task.project],
    enabled: debounced.length > 0,
    queryFn: ({ signal }) =>
      get<Task[]>(`/api/v1/search/${qs({ q: debounced, project: task.project, limit: 20 })}`, signal),
  });
  const candidates = (found.data ?? []).filter((t) => t.key !== task.key);
  return (
    <Picker
      label="Parent"
      selected={[task.parent ?? 'none']}
      options={[
        { value: 'none', label: 'No parent (top level)' },
        ...candidates.map((t) => ({ value: t.key, label: `${t.key} ${t.title}` })),
      ]}
      onSearch={setText}
      onChange={([v]) => onSave({ parent: v === 'none' || v === undefined ? null : v })}
      placeholder="Words from its title, or its key"
      display={task.parent ?? <span className="muted">None</span>}
    />
  );
}

/** A custom field's input in place, saved when it changes (text and numbers when the field is left). */
function CustomFieldInPlace({
  field,
  task,
  config,
  onSave,
}: {
  field: CustomField;
  task: Task;
  config: ProjectConfig;
  onSave: SaveFields;
}) {
  const stored = task.custom_fields[String(field.id)] ?? null;
  const [value, setValue] = useState<unknown>(stored);
  const typed = field.type === 'text' || field.type === 'number' || field.type === 'url';
  const storedText = JSON.stringify(stored);
  useEffect(() => setValue(JSON.parse(storedText)), [storedText]);
  const send = (next: unknown) => {
    if (JSON.stringify(next ?? null) !== storedText) onSave({ custom_fields: { [String(field.id)]: next ?? null } });
  };
  return (
    <div
      className="custom-in-place"
      title={customValueText(field, stored, config)}
      onBlur={(e) => {
        if (typed && !e.currentTarget.contains(e.relatedTarget as Node | null)) send(value);
      }}
    >
      <CustomFieldInput
        field={field}
        config={config}
        value={value}
        onChange={(next) => {
          setValue(next);
          if (!typed) send(next);
        }}
      />
    </div>
  );
}

/**
 * The title as the heading; a click or `e` edits it in place, Enter saves, Escape leaves it as
 * it was. The save goes against the version the edit started from, so a change made meanwhile
 * is a conflict to resolve, not something overwritten.
 */
export function TitleInPlace({
  loaded,
  onSave,
}: {
  loaded: LoadedTask;
  onSave: (changes: TaskChanges, etag: string | null, from: Task) => void;
}) {
  const { task } = loaded;
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(task.title);
  const started = useRef(loaded);
  const input = useRef<HTMLInputElement>(null);
  // Enter or Escape ends the edit; the blur that may follow as the input goes must not save again.
  const active = useRef(false);
  const start = () => {
    active.current = true;
    started.current = loaded;
    setText(task.title);
    setEditing(true);
  };
  const startRef = useRef(start);
  startRef.current = start;
  useEffect(() => {
    const onEdit = () => startRef.current();
    window.addEventListener('tt:edit', onEdit);
    return () => window.removeEventListener('tt:edit', onEdit);
  }, []);
  useEffect(() => {
    if (editing) input.current?.select();
  }, [editing]);
  const commit = () => {
    if (!active.current) return;
    active.current = false;
    setEditing(false);
    const title = text.trim();
    const from = started.current;
    if (title && title !== from.task.title) onSave({ title }, from.etag, from.task);
  };
  if (editing)
    return (
      <input
        ref={input}
        className="title-input"
        aria-label="Title"
        maxLength={500}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') {
            e.preventDefault();
            active.current = false;
            setText(task.title);
            setEditing(false);
          }
        }}
      />
    );
  return (
    <h1 id={`title-${task.key}`} className="task-title">
      <span className="muted">{task.key}</span>{' '}
      <button type="button" className="title-button" title="Edit the title (e)" onClick={start}>
        {task.title}
      </button>
    </h1>
  );
}
