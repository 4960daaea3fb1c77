import type { Dialect, Executor } from '../../db/database.ts';
import { type ReportStatus, type Stamp, StatusNames, type Timeline, timelineOf } from './history.ts';
import * as repo from './reports.repository.ts';

/**
 * The replayed past of every task of a project, kept per process and brought up to date on each
 * report (docs/api/planning.md#how-reports-stay-fast): replaying a project's whole activity on
 * every request costs 0.2–1 s of CPU at 20,000 tasks, bringing it up to date costs one indexed
 * statement when nothing changed.
 *
 * Every task write (create, update, delete) inserts a change record of its project in its
 * transaction (task-writes.ts), so the project's last change record id moves whenever a task's
 * history does. One statement reads it with the tasks of the records after the last id seen, and
 * only those tasks are read again. SQLite commits one writer at a time in id order, so no record
 * can appear below the last id seen. On PostgreSQL one can (a transaction that took its id before
 * another committed), so the statement also counts the project's records: when the count did not
 * grow by exactly the records after the last id, the whole project is read again. Records swept by
 * retention take no history with them (it is in `activities`); on PostgreSQL they only cost a read. Statuses, their renames and task types are read on every
 * report: the timelines are resolved again when any of them changed, without reading history.
 */

export interface TaskPast {
  id: number;
  key: string;
  title: string;
  taskType: string;
  createdAt: Stamp;
  status: Timeline<ReportStatus>;
  estimate: Timeline<number | null>;
  sprint: Timeline<number | null>;
}

type RawChanges = Record<repo.ReportField, Array<{ at: Stamp; from: string | null }>>;

/** A task as read: its row now and its recorded changes, not yet resolved against statuses. */
interface RawTask {
  row: Awaited<ReturnType<typeof repo.tasksOfProject>>[number];
  changes: RawChanges;
}

interface ProjectHistory {
  /** The change records' count and last id when the tasks were last brought up to date. */
  total: number;
  last: number | null;
  tasks: Map<number, RawTask>;
  /** The statuses, renames and task types the resolved pasts were made with, and those pasts in task order. */
  namesKey: string | null;
  names: StatusNames | null;
  pasts: TaskPast[];
  /** Refreshes of one project run one after another. */
  queue: Promise<unknown>;
}

/** Beyond this many changed tasks, reading the whole project again is as cheap. */
const MAX_TASKS_READ_AGAIN = 1000;
/** Projects kept per database, least recently used dropped first. */
const MAX_PROJECTS = 16;

const caches = new WeakMap<Executor, Map<number, ProjectHistory>>();

function projectsOf(db: Executor): Map<number, ProjectHistory> {
  let projects = caches.get(db);
  if (!projects) caches.set(db, (projects = new Map()));
  return projects;
}

async function readTasks(db: Executor, projectId: number, ids: number[] | null): Promise<Map<number, RawTask>> {
  const [rows, changes] = await Promise.all([
    repo.tasksOfProject(db, projectId, ids),
    repo.fieldChanges(db, projectId, ids),
  ]);
  const tasks = new Map<number, RawTask>();
  for (const row of rows) tasks.set(row.id, { row, changes: { status: [], estimate: [], sprint: [] } });
  for (const change of changes)
    tasks
      .get(change.task_id)
      ?.changes[change.field as repo.ReportField].push({ at: change.created_at, from: change.from_value });
  return tasks;
}

/** Brings the project's tasks up to date with its change records: the ids of the tasks read again, or all. */
async function refreshTasks(
  db: Executor,
  dialect: Dialect,
  projectId: number,
  history: ProjectHistory,
): Promise<Set<number> | 'all'> {
  const counted = dialect === 'postgres';
  const rows = await repo.changesSince(db, projectId, history.last, counted);
  const total = Number(rows[0]!.total);
  const last = rows[0]!.last === null ? null : Number(rows[0]!.last);
  if (total === history.total && last === history.last && history.namesKey !== null) return new Set();
  const after = rows.filter((r) => r.task_id !== null);
  const changed = new Set(after.map((r) => r.task_id!));
  let read: Set<number> | 'all' = changed;
  const complete = !counted || total === history.total + after.length;
  if (history.namesKey !== null && complete && changed.size <= MAX_TASKS_READ_AGAIN) {
    const tasks = await readTasks(db, projectId, [...changed]);
    for (const id of changed) {
      const task = tasks.get(id);
      if (task) history.tasks.set(id, task);
      else history.tasks.delete(id);
    }
  } else {
    history.tasks = await readTasks(db, projectId, null);
    read = 'all';
  }
  history.total = total;
  history.last = last;
  return read;
}

function resolve(task: RawTask, names: StatusNames, types: Map<number, string>): TaskPast {
  const { row, changes } = task;
  return {
    id: row.id,
    key: row.key,
    title: row.title,
    taskType: types.get(row.task_type_id) ?? '',
    createdAt: row.created_at,
    status: timelineOf(names.byStatusId(row.status_id), changes.status, (from, at) => names.resolve(String(from), at)),
    estimate: timelineOf(row.estimate === null ? null : Number(row.estimate), changes.estimate, (from) =>
      typeof from === 'number' ? from : null,
    ),
    sprint: timelineOf(row.sprint_id, changes.sprint, (from) => (typeof from === 'number' ? from : null)),
  };
}

async function refresh(db: Executor, dialect: Dialect, projectId: number, history: ProjectHistory) {
  const [changed, { statuses, renames }, types] = await Promise.all([
    refreshTasks(db, dialect, projectId, history),
    repo.statusesWithRenames(db, projectId),
    repo.taskTypesOf(db, projectId),
  ]);
  const namesKey = JSON.stringify([statuses, renames, types]);
  if (changed === 'all' || changed.size > 0 || namesKey !== history.namesKey) {
    // A task read again is resolved again; the others keep theirs unless the names changed.
    const sameNames = namesKey === history.namesKey && changed !== 'all';
    const names = sameNames ? history.names! : new StatusNames(statuses, renames);
    const typeNames = new Map(types.map((t) => [t.id, t.name]));
    const kept = new Map(sameNames ? history.pasts.map((p) => [p.id, p]) : []);
    const pasts: TaskPast[] = [];
    for (const [id, task] of history.tasks) {
      const past = changed !== 'all' && !changed.has(id) ? kept.get(id) : undefined;
      pasts.push(past ?? resolve(task, names, typeNames));
    }
    pasts.sort((a, b) => a.id - b.id);
    history.pasts = pasts;
    history.names = names;
    history.namesKey = namesKey;
  }
  return { tasks: history.pasts, names: history.names! };
}

/** Every task of the project now with its past, in task order, and the status names they were resolved with. */
export function pastOfProject(
  db: Executor,
  dialect: Dialect,
  projectId: number,
): Promise<{ tasks: TaskPast[]; names: StatusNames }> {
  const projects = projectsOf(db);
  let history = projects.get(projectId);
  if (history) projects.delete(projectId);
  else
    history = {
      total: -1,
      last: null,
      tasks: new Map(),
      namesKey: null,
      names: null,
      pasts: [],
      queue: Promise.resolve(),
    };
  projects.set(projectId, history);
  while (projects.size > MAX_PROJECTS) projects.delete(projects.keys().next().value!);
  const current = history;
  const result = current.queue.then(() => refresh(db, dialect, projectId, current));
  current.queue = result.catch(() => undefined);
  return result;
}
