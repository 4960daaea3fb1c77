import { useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getAll } from '../../lib/http.ts';
import { projectKeys } from '../projects/api.ts';
import { taskKeys } from '../tasks/api.ts';
import { EditDelete, ErrorNote, Field, Form, SaveCancel, formatDate } from '../../ui/index.ts';
import { createPlanningItem, deletePlanningItem, updatePlanningItem } from './api.ts';
import { CompleteSprintDialog } from './complete-sprint.tsx';

/** One editable attribute of a label, milestone or sprint, as its form shows it. */
interface Attr {
  name: string;
  label: string;
  kind: 'text' | 'textarea' | 'color' | 'date' | 'select';
  options?: readonly string[];
  required?: boolean;
}

interface Item {
  id: number;
  name: string;
  task_count: number;
  [attr: string]: unknown;
}

interface Kind {
  /** The API's path segment: `/api/v1/projects/{key}/{plural}/` and `/api/v1/{plural}/{id}/`. */
  plural: 'labels' | 'milestones' | 'sprints';
  singular: string;
  title: string;
  attrs: Attr[];
  /** What a row shows after the name. */
  summary: (item: Item) => ReactNode;
}

const dates = (from: unknown, to: unknown) => [from, to].map((d) => (d ? formatDate(String(d)) : '…')).join(' – ');

export const LABELS: Kind = {
  plural: 'labels',
  singular: 'label',
  title: 'Labels',
  attrs: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'color', label: 'Color', kind: 'color' },
    { name: 'description', label: 'Description', kind: 'textarea' },
  ],
  summary: (l) => (
    <>
      <span className="swatch" style={{ background: String(l.color) }} aria-hidden="true" />{' '}
      {String(l.description || '')}
    </>
  ),
};

export const MILESTONES: Kind = {
  plural: 'milestones',
  singular: 'milestone',
  title: 'Milestones',
  attrs: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'due_date', label: 'Due date', kind: 'date' },
    { name: 'state', label: 'State', kind: 'select', options: ['open', 'closed'] },
    { name: 'description', label: 'Description', kind: 'textarea' },
  ],
  summary: (m) => (
    <>
      <span className="chip">{String(m.state)}</span>{' '}
      {m.due_date ? `due ${formatDate(String(m.due_date))}` : 'no due date'}
    </>
  ),
};

export const SPRINTS: Kind = {
  plural: 'sprints',
  singular: 'sprint',
  title: 'Sprints',
  attrs: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'start_date', label: 'Starts', kind: 'date' },
    { name: 'end_date', label: 'Ends', kind: 'date' },
    { name: 'state', label: 'State', kind: 'select', options: ['planned', 'active', 'completed'] },
    { name: 'goal', label: 'Goal', kind: 'textarea' },
  ],
  summary: (s) => (
    <>
      <span className="chip">{String(s.state)}</span> {dates(s.start_date, s.end_date)}
      {s.goal ? ` · ${String(s.goal)}` : ''}
    </>
  ),
};

type Values = Record<string, string>;

const count = (n: number) => `${n} ${n === 1 ? 'task' : 'tasks'}`;

const valuesOf = (kind: Kind, item: Item | null): Values =>
  Object.fromEntries(
    kind.attrs.map((a) => [
      a.name,
      item ? String(item[a.name] ?? '') : a.kind === 'color' ? '#ededed' : a.kind === 'select' ? a.options![0]! : '',
    ]),
  );

/** The body to send: dates left empty are null; on an edit only what changed. */
function bodyOf(kind: Kind, values: Values, before: Values | null): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const attr of kind.attrs) {
    const value = values[attr.name] ?? '';
    if (before && before[attr.name] === value) continue;
    if (!before && value === '') continue;
    body[attr.name] = attr.kind === 'date' && value === '' ? null : value;
  }
  return body;
}

function AttrFields({ kind, values, onChange }: { kind: Kind; values: Values; onChange: (v: Values) => void }) {
  return (
    <>
      {kind.attrs.map((attr) => (
        <Field key={attr.name} label={attr.label}>
          {(id) => {
            const common = { id, value: values[attr.name] ?? '', required: attr.required };
            const set = (value: string) => onChange({ ...values, [attr.name]: value });
            if (attr.kind === 'select')
              return (
                <select {...common} onChange={(e) => set(e.target.value)}>
                  {attr.options!.map((o) => (
                    <option key={o}>{o}</option>
                  ))}
                </select>
              );
            if (attr.kind === 'textarea')
              return <textarea {...common} rows={2} onChange={(e) => set(e.target.value)} />;
            return (
              <input
                {...common}
                type={attr.kind}
                maxLength={attr.kind === 'text' ? 200 : undefined}
                onChange={(e) => set(e.target.value)}
              />
            );
          }}
        </Field>
      ))}
    </>
  );
}

/** A project's labels, milestones or sprints: create, edit and delete through the published API. */
export function PlanningSection({ kind, projectKey }: { kind: Kind; projectKey: string }) {
  const client = useQueryClient();
  // The same resource the board's filters and the task's pickers read (projectKeys), as rows to edit.
  const itemsKey = projectKeys[kind.plural](projectKey);
  const items = useQuery({
    queryKey: itemsKey,
    queryFn: ({ signal }) => getAll<Item>(`/api/v1/projects/${projectKey}/${kind.plural}/`, signal),
  });
  const [draft, setDraft] = useState<Values>(() => valuesOf(kind, null));
  const [editing, setEditing] = useState<{ id: number; values: Values } | null>(null);
  const [completing, setCompleting] = useState<Item | null>(null);
  const refresh = () => {
    void client.invalidateQueries({ queryKey: itemsKey });
    // Renames and deletions show on the project's tasks.
    void client.invalidateQueries({ queryKey: taskKeys.lists(projectKey) });
    void client.invalidateQueries({ queryKey: ['task'] });
  };
  const create = useMutation({
    mutationFn: () => createPlanningItem(projectKey, kind.plural, bodyOf(kind, draft, null)),
    meta: { quiet: true },
    onSuccess: () => {
      setDraft(valuesOf(kind, null));
      refresh();
    },
  });
  const save = useMutation({
    mutationFn: ({ item, values }: { item: Item; values: Values }) =>
      updatePlanningItem(kind.plural, item.id, bodyOf(kind, values, valuesOf(kind, item))),
    meta: { quiet: true },
    onSuccess: () => {
      setEditing(null);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => deletePlanningItem(kind.plural, id),
    meta: { quiet: true },
    onSuccess: refresh,
  });
  const titleId = `${kind.plural}-title`;
  return (
    <section aria-labelledby={titleId}>
      <h2 id={titleId}>{kind.title}</h2>
      <ErrorNote error={items.error ?? remove.error} />
      {items.data?.length === 0 ? <p className="muted">No {kind.plural} yet.</p> : null}
      <ul className="plain rows">
        {items.data?.map((item) =>
          editing?.id === item.id ? (
            <li key={item.id}>
              <Form
                className="inline-form editor"
                label={`Edit ${kind.singular} ${item.name}`}
                onSubmit={() => save.mutate({ item, values: editing.values })}
              >
                <AttrFields
                  kind={kind}
                  values={editing.values}
                  onChange={(values) => setEditing({ id: item.id, values })}
                />
                <SaveCancel pending={save.isPending} onCancel={() => setEditing(null)} />
                <ErrorNote error={save.error} />
              </Form>
            </li>
          ) : (
            <li key={item.id} className="row">
              <span className="row-main">
                <strong>{item.name}</strong> <span className="muted">{kind.summary(item)}</span>{' '}
                <span className="muted">({count(item.task_count)})</span>
              </span>
              {kind.plural === 'sprints' && item.state !== 'completed' ? (
                <button type="button" onClick={() => setCompleting(item)}>
                  Complete {item.name}
                </button>
              ) : null}
              <EditDelete
                name={item.name}
                question={`Delete ${item.name}?${item.task_count ? ` It comes off ${count(item.task_count)}.` : ''}`}
                pending={remove.isPending}
                onDelete={() => remove.mutate(item.id)}
                onEdit={() => {
                  save.reset();
                  setEditing({ id: item.id, values: valuesOf(kind, item) });
                }}
              />
            </li>
          ),
        )}
      </ul>
      <Form className="inline-form" label={`New ${kind.singular}`} onSubmit={() => create.mutate()}>
        <AttrFields kind={kind} values={draft} onChange={setDraft} />
        <button type="submit" disabled={create.isPending}>
          Add {kind.singular}
        </button>
      </Form>
      <ErrorNote error={create.error} />
      {completing ? (
        <CompleteSprintDialog
          projectKey={projectKey}
          sprint={completing}
          sprints={items.data ?? []}
          onClose={() => setCompleting(null)}
          onDone={() => {
            setCompleting(null);
            refresh();
          }}
        />
      ) : null}
    </section>
  );
}
