import { useState, type ReactNode } from 'react';
import { useQueries } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { Task, View } from '../../lib/api-types.ts';
import { useNameOf } from '../people/use-people.ts';
import { milestonesQuery, sprintsQuery } from '../projects/api.ts';
import { Dialog, ErrorNote, Field, Form, categoryLabel, formatDate, formatDateTime } from '../../ui/index.ts';

/** The task fields a view may show, in the order the API lists them, with their headings. */
export const COLUMN_LABELS = {
  key: 'Key',
  title: 'Title',
  project: 'Project',
  status: 'Status',
  status_category: 'Category',
  task_type: 'Type',
  priority: 'Priority',
  assignee: 'Assignee',
  labels: 'Labels',
  due_date: 'Due',
  start_date: 'Starts',
  estimate: 'Estimate',
  milestone: 'Milestone',
  sprint: 'Sprint',
  parent: 'Parent',
  created_by: 'Created by',
  created_at: 'Created',
  updated_at: 'Updated',
  time_spent_minutes: 'Time spent',
} as const;
export type Column = keyof typeof COLUMN_LABELS;
const ALL_COLUMNS = Object.keys(COLUMN_LABELS) as Column[];
/** What a view shows when it names no columns (the API's default). */
export const DEFAULT_COLUMNS: Column[] = ['key', 'title', 'status', 'assignee', 'priority', 'due_date'];

export type GroupBy = NonNullable<View['group_by']>;
export const GROUP_LABELS: Record<GroupBy, string> = {
  status: 'Status',
  status_category: 'Status category',
  assignee: 'Assignee',
  priority: 'Priority',
  task_type: 'Type',
  label: 'Label',
  milestone: 'Milestone',
  sprint: 'Sprint',
  project: 'Project',
  parent: 'Parent',
};

/** The view's columns the app knows, in the view's order (an empty list shows the defaults). */
export const columnsOf = (view: View | null): Column[] => {
  const known = (view?.columns ?? []).filter((c): c is Column => c in COLUMN_LABELS);
  return known.length ? known : DEFAULT_COLUMNS;
};

/** Names for the ids a task carries: people, and the sprints and milestones of the tasks' projects. */
function useNames(tasks: Task[]) {
  const nameOf = useNameOf();
  const projects = [...new Set(tasks.map((t) => t.project))];
  const lists = useQueries({ queries: projects.flatMap((key) => [sprintsQuery(key), milestonesQuery(key)]) });
  const named = new Map<string, string>();
  projects.forEach((key, i) => {
    for (const s of lists[i * 2]?.data ?? []) named.set(`sprint:${s.id}`, s.name);
    for (const m of lists[i * 2 + 1]?.data ?? []) named.set(`milestone:${m.id}`, m.name);
  });
  const planning = (kind: 'sprint' | 'milestone', id: number | null) =>
    id == null ? '' : (named.get(`${kind}:${id}`) ?? `#${id}`);
  return { person: nameOf, planning };
}
type Names = ReturnType<typeof useNames>;

const hours = (minutes: number) => (minutes ? `${Math.floor(minutes / 60)}h ${minutes % 60}m` : '');

function cell(task: Task, column: Column, names: Names, today: string): ReactNode {
  switch (column) {
    case 'key':
      return (
        <Link href={`/t/${task.key}`} className="key" data-nav-item="">
          {task.key}
        </Link>
      );
    case 'title':
      return task.title;
    case 'status_category':
      return categoryLabel[task.status_category];
    case 'assignee':
    case 'created_by':
      return names.person(task[column]);
    case 'labels':
      return task.labels.join(', ');
    case 'due_date':
      return task.due_date ? (
        <span className={task.due_date < today && task.status_category !== 'done' ? 'due overdue' : 'due'}>
          {formatDate(task.due_date)}
        </span>
      ) : (
        ''
      );
    case 'start_date':
      return task.start_date ? formatDate(task.start_date) : '';
    case 'created_at':
    case 'updated_at':
      return formatDateTime(task[column]);
    case 'milestone':
    case 'sprint':
      return names.planning(column, task[column]);
    case 'time_spent_minutes':
      return hours(task.time_spent_minutes);
    default:
      return task[column] == null ? '' : String(task[column]);
  }
}

/** The groups a task falls in: one, or one per label (none: "No label"). */
function groupsOf(task: Task, groupBy: GroupBy, names: Names): string[] {
  switch (groupBy) {
    case 'label':
      return task.labels.length ? task.labels : ['No label'];
    case 'assignee':
      return [task.assignee == null ? 'Unassigned' : names.person(task.assignee)];
    case 'milestone':
    case 'sprint':
      return [task[groupBy] == null ? `No ${groupBy}` : names.planning(groupBy, task[groupBy])];
    case 'status_category':
      return [categoryLabel[task.status_category]];
    case 'parent':
      return [task.parent ?? 'No parent'];
    default:
      return [String(task[groupBy])];
  }
}

/** A view's tasks as a table of its columns, in sections by its `group_by` (in the order the query found them). */
export function ViewTable({ tasks, columns, groupBy }: { tasks: Task[]; columns: Column[]; groupBy: GroupBy | null }) {
  const names = useNames(tasks);
  const today = new Date().toISOString().slice(0, 10);
  const groups = new Map<string, Task[]>();
  if (groupBy)
    for (const task of tasks)
      for (const g of groupsOf(task, groupBy, names)) groups.set(g, [...(groups.get(g) ?? []), task]);
  const table = (rows: Task[], caption: string) => (
    <div className="table-wrap">
      <table className="view-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {COLUMN_LABELS[c]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((task) => (
            <tr key={task.key} data-view-task={task.key}>
              {columns.map((c) => (
                <td key={c} className={`col-${c}`}>
                  {cell(task, c, names, today)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
  if (!groupBy) return tasks.length ? table(tasks, 'Tasks') : null;
  return (
    <>
      {[...groups].map(([group, rows]) => (
        <section key={group} className="view-group" aria-label={`${GROUP_LABELS[groupBy]}: ${group}`}>
          <h2 className="view-group-head">
            {group} <span className="count">{rows.length}</span>
          </h2>
          {table(rows, `${GROUP_LABELS[groupBy]}: ${group}`)}
        </section>
      ))}
    </>
  );
}

/** The view's grouping and columns, chosen and saved together. */
export function DisplayDialog({
  open,
  view,
  busy,
  error,
  onClose,
  onSave,
}: {
  open: boolean;
  view: View;
  busy: boolean;
  error: unknown;
  onClose: () => void;
  onSave: (display: { group_by: GroupBy | null; columns: Column[] }) => void;
}) {
  const [groupBy, setGroupBy] = useState<GroupBy | ''>(view.group_by ?? '');
  const [columns, setColumns] = useState<Column[]>(() => columnsOf(view));
  // A column checked again goes last; unchecked ones keep the others' order.
  const toggle = (column: Column, on: boolean) =>
    setColumns((current) => (on ? [...current, column] : current.filter((c) => c !== column)));
  return (
    <Dialog open={open} onClose={onClose} title="Display">
      <Form
        className="stack"
        label="Display"
        onSubmit={() => onSave({ group_by: groupBy || null, columns: columns.length ? columns : DEFAULT_COLUMNS })}
      >
        <Field label="Group by">
          {(id) => (
            <select id={id} value={groupBy} onChange={(e) => setGroupBy(e.target.value as GroupBy | '')}>
              <option value="">Nothing</option>
              {Object.entries(GROUP_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <fieldset className="column-choices">
          <legend>Columns</legend>
          {ALL_COLUMNS.map((c) => (
            <label key={c} className="check">
              <input type="checkbox" checked={columns.includes(c)} onChange={(e) => toggle(c, e.target.checked)} />{' '}
              {COLUMN_LABELS[c]}
            </label>
          ))}
        </fieldset>
        <p className="muted">
          Shown in this order: {columns.map((c) => COLUMN_LABELS[c]).join(', ') || 'the defaults'}.
        </p>
        <ErrorNote error={error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            Save display
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </Form>
    </Dialog>
  );
}
