import type { AppContext } from '../../context.ts';
import { invalid, notFound } from '../../http/errors.ts';
import type { Principal } from '../../identity/principal.ts';
import { projectFor } from '../../policy/index.ts';
import {
  addDays,
  datesBetween,
  endOfDay,
  hoursBetween,
  percentile,
  type ReportStatus,
  round,
  type Stamp,
  stampOf,
  StatusNames,
  type Timeline,
  timelineOf,
  valueAt,
} from './history.ts';
import * as repo from './reports.repository.ts';

/**
 * Reports computed from the tasks' activity history (docs/api/planning.md#reports), as they
 * stood at `as_of`. Days are UTC days.
 */

interface TaskPast {
  id: number;
  key: string;
  title: string;
  taskType: string;
  createdAt: Stamp;
  status: Timeline<ReportStatus>;
  estimate: Timeline<number | null>;
  sprint: Timeline<number | null>;
}

interface Loaded {
  project: { id: number; key: string };
  unit: 'points' | 'hours';
  asOf: Stamp;
  tasks: TaskPast[];
  names: StatusNames;
}

/** How long a report's range may be, so one request stays bounded. */
const MAX_DAYS = 366;

function checkRange(from: string, to: string): void {
  if (to < from) throw invalid({ to: 'must not be before from' });
  if (to > addDays(from, MAX_DAYS - 1)) throw invalid({ to: `the range is at most ${MAX_DAYS} days` });
}

/**
 * The project's tasks at `asOf` with the past of `fields` after `after`; a field not asked for
 * keeps its value now throughout, so only reports that never look at it leave it out.
 */
async function load(
  ctx: AppContext,
  principal: Principal,
  projectKey: string,
  asOfParam: string | undefined,
  after: string | null,
  fields: repo.ReportField[],
): Promise<Loaded> {
  const project = await projectFor(ctx.db, principal, { key: projectKey });
  const now = ctx.clock.nowIso();
  const asked = asOfParam === undefined ? now : stampOf(Date.parse(asOfParam));
  const asOf = asked < now ? asked : now;
  const [rows, changes, { statuses, renames }, unit] = await Promise.all([
    repo.tasksOfProject(ctx.db, project.id, asOf),
    repo.fieldChanges(ctx.db, project.id, fields, after),
    repo.statusesWithRenames(ctx.db, project.id),
    repo.estimateUnitOf(ctx.db, project.id),
  ]);
  const names = new StatusNames(statuses, renames);
  // The changes come by task and field, oldest first: each task's are one run of rows.
  const byTask = new Map<number, Record<repo.ReportField, Array<{ at: Stamp; from: string | null }>>>();
  for (const change of changes) {
    let fieldsOfTask = byTask.get(change.task_id);
    if (!fieldsOfTask) byTask.set(change.task_id, (fieldsOfTask = { status: [], estimate: [], sprint: [] }));
    fieldsOfTask[change.field as repo.ReportField].push({ at: change.created_at, from: change.from_value });
  }
  const none = { status: [], estimate: [], sprint: [] };
  const tasks = rows.map((row) => {
    const past = byTask.get(row.id) ?? none;
    return {
      id: row.id,
      key: row.key,
      title: row.title,
      taskType: row.task_type,
      createdAt: row.created_at,
      status: timelineOf(names.byStatusId(row.status_id), past.status, (from, at) => names.resolve(String(from), at)),
      estimate: timelineOf(row.estimate === null ? null : Number(row.estimate), past.estimate, (from) =>
        typeof from === 'number' ? from : null,
      ),
      sprint: timelineOf(row.sprint_id, past.sprint, (from) => (typeof from === 'number' ? from : null)),
    };
  });
  return { project, unit, asOf, tasks, names };
}

/** Whether a task was ever in `sprintId`, by its sprint's past: tasks that never were cannot count for it. */
const everIn = (task: TaskPast, sprintId: number) =>
  task.sprint.initial === sprintId || task.sprint.changes.some((c) => c.value === sprintId);

const exists = (task: TaskPast, at: Stamp) => task.createdAt <= at;
const isDone = (task: TaskPast, at: Stamp) => valueAt(task.status, at).category === 'done';
const estimateAt = (task: TaskPast, at: Stamp) => valueAt(task.estimate, at) ?? 0;
/** The sample time of a day: its end, or `as_of` on the day it falls in. */
const sampleOf = (date: string, asOf: Stamp): Stamp => (endOfDay(date) < asOf ? endOfDay(date) : asOf);
const daysUpTo = (from: string, to: string, asOf: Stamp) =>
  datesBetween(from, to).filter((d) => d <= asOf.slice(0, 10));

// -------------------------------------------------------------------------------------------

export interface BurndownQuery {
  sprint?: number;
  from?: string;
  to?: string;
  as_of?: string;
}

export async function burndown(ctx: AppContext, principal: Principal, projectKey: string, query: BurndownQuery) {
  let sprint: { id: number; name: string; start_date: string | null; end_date: string | null } | null = null;
  let from = query.from;
  let to = query.to;
  if (query.sprint !== undefined) {
    const project = await projectFor(ctx.db, principal, { key: projectKey });
    const found = (await repo.sprintsOfProject(ctx.db, project.id)).find((s) => s.id === query.sprint);
    if (!found) throw notFound('Sprint');
    sprint = { id: found.id, name: found.name, start_date: found.start_date, end_date: found.end_date };
    from ??= found.start_date ?? undefined;
    to ??= found.end_date ?? undefined;
  }
  if (from === undefined || to === undefined)
    throw invalid({
      [from === undefined ? 'from' : 'to']: 'is required without a sprint, or with a sprint that has no such date',
    });
  checkRange(from, to);
  const data = await load(
    ctx,
    principal,
    projectKey,
    query.as_of,
    endOfDay(addDays(from, -1)),
    sprint === null ? ['status', 'estimate'] : ['status', 'estimate', 'sprint'],
  );
  const scoped = sprint === null ? data.tasks : data.tasks.filter((task) => everIn(task, sprint.id));
  const inScope = (task: TaskPast, at: Stamp) =>
    exists(task, at) && (sprint === null || valueAt(task.sprint, at) === sprint.id);
  const remainingAt = (at: Stamp) => {
    let estimate = 0;
    let tasks = 0;
    for (const task of scoped)
      if (inScope(task, at) && !isDone(task, at)) {
        estimate += estimateAt(task, at);
        tasks++;
      }
    return { estimate, tasks };
  };
  const allDays = datesBetween(from, to);
  const start = remainingAt(endOfDay(addDays(from, -1))).estimate;
  const days = daysUpTo(from, to, data.asOf).map((date, i) => {
    const at = sampleOf(date, data.asOf);
    const before = endOfDay(addDays(date, -1));
    const remaining = remainingAt(at);
    const added = { tasks: 0, estimate: 0 };
    const removed = { tasks: 0, estimate: 0 };
    for (const task of scoped) {
      const now = inScope(task, at);
      const then = inScope(task, before);
      if (now && !then) {
        added.tasks++;
        added.estimate += estimateAt(task, at);
      } else if (then && !now) {
        removed.tasks++;
        removed.estimate += estimateAt(task, before);
      }
    }
    const ideal = allDays.length === 1 ? 0 : (start * (allDays.length - 1 - i)) / (allDays.length - 1);
    return {
      date,
      remaining_estimate: round(remaining.estimate),
      remaining_tasks: remaining.tasks,
      added_tasks: added.tasks,
      added_estimate: round(added.estimate),
      removed_tasks: removed.tasks,
      removed_estimate: round(removed.estimate),
      ideal_estimate: round(ideal),
    };
  });
  return { project: data.project.key, unit: data.unit, sprint, from, to, as_of: data.asOf, days };
}

// -------------------------------------------------------------------------------------------

export interface RangeQuery {
  from: string;
  to: string;
  as_of?: string;
}

export async function flow(ctx: AppContext, principal: Principal, projectKey: string, query: RangeQuery) {
  checkRange(query.from, query.to);
  const data = await load(ctx, principal, projectKey, query.as_of, endOfDay(addDays(query.from, -1)), ['status']);
  const days = daysUpTo(query.from, query.to, data.asOf).map((date) => {
    const at = sampleOf(date, data.asOf);
    const counts = new Map<string, number>();
    for (const task of data.tasks) {
      if (!exists(task, at)) continue;
      const status = valueAt(task.status, at);
      counts.set(status.id, (counts.get(status.id) ?? 0) + 1);
    }
    return { date, counts };
  });

  // Time in each status within the range (up to as_of), for the tasks that were not done throughout it.
  const windowStart = `${query.from}T00:00:00.000000Z`;
  const windowEnd = sampleOf(query.to, data.asOf);
  const tasks: Array<{ key: string; title: string; hours: Map<string, number> }> = [];
  for (const task of data.tasks) {
    if (!exists(task, windowEnd)) continue;
    const start = task.createdAt > windowStart ? task.createdAt : windowStart;
    if (start > windowEnd) continue;
    const hours = new Map<string, number>();
    let at = start;
    let status = valueAt(task.status, at);
    let allDone = status.category === 'done';
    for (const change of task.status.changes) {
      if (change.at <= at) continue;
      if (change.at > windowEnd) break;
      hours.set(status.id, (hours.get(status.id) ?? 0) + hoursBetween(at, change.at));
      at = change.at;
      status = change.value;
      allDone &&= status.category === 'done';
    }
    hours.set(status.id, (hours.get(status.id) ?? 0) + hoursBetween(at, windowEnd));
    if (!allDone) tasks.push({ key: task.key, title: task.title, hours });
  }

  const shown = data.names.all().filter((s) => s.category !== null || days.some((d) => d.counts.has(s.id)));
  return {
    project: data.project.key,
    from: query.from,
    to: query.to,
    as_of: data.asOf,
    statuses: shown.map(({ name, category }) => ({ name, category })),
    days: days.map(({ date, counts }) => ({
      date,
      counts: Object.fromEntries(shown.map((s) => [s.name, counts.get(s.id) ?? 0])),
    })),
    tasks: tasks.map(({ key, title, hours }) => ({
      key,
      title,
      hours_in_status: Object.fromEntries(
        shown.filter((s) => hours.has(s.id)).map((s) => [s.name, Math.round(hours.get(s.id)! * 100) / 100]),
      ),
    })),
  };
}

// -------------------------------------------------------------------------------------------

interface Completion {
  taskType: string;
  at: Stamp;
  cycleHours: number | null;
  leadHours: number;
}

/** When a task was completed within the range: its last move into a done status, if it is still done at the range's end. */
function completionOf(task: TaskPast, windowStart: Stamp, windowEnd: Stamp): Completion | null {
  if (!exists(task, windowEnd) || !isDone(task, windowEnd)) return null;
  let doneAt: Stamp | null = task.status.initial.category === 'done' ? task.createdAt : null;
  let startedAt: Stamp | null = task.status.initial.category === 'in_progress' ? task.createdAt : null;
  let previous = task.status.initial.category;
  for (const change of task.status.changes) {
    if (change.at > windowEnd) break;
    const category = change.value.category;
    if (category === 'in_progress' && startedAt === null) startedAt = change.at;
    if (category === 'done' && previous !== 'done') doneAt = change.at;
    previous = category;
  }
  if (doneAt === null || doneAt < windowStart) return null;
  return {
    taskType: task.taskType,
    at: doneAt,
    cycleHours: startedAt !== null && startedAt <= doneAt ? hoursBetween(startedAt, doneAt) : null,
    leadHours: hoursBetween(task.createdAt, doneAt),
  };
}

function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => {
    const v = percentile(sorted, p);
    return v === null ? null : Math.round(v * 100) / 100;
  };
  return { p50: at(50), p85: at(85), p95: at(95) };
}

function summary(completions: Completion[]) {
  return {
    completed: completions.length,
    cycle_time_hours: percentiles(completions.flatMap((c) => (c.cycleHours === null ? [] : [c.cycleHours]))),
    lead_time_hours: percentiles(completions.map((c) => c.leadHours)),
  };
}

/** The Monday of a date's ISO week. */
function weekOf(date: string): string {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((day + 6) % 7));
}

export async function cycleTime(ctx: AppContext, principal: Principal, projectKey: string, query: RangeQuery) {
  checkRange(query.from, query.to);
  // A completion in the range may have started long before it: the whole status history is read.
  const data = await load(ctx, principal, projectKey, query.as_of, null, ['status']);
  const windowStart = `${query.from}T00:00:00.000000Z`;
  const windowEnd = sampleOf(query.to, data.asOf);
  const completions = data.tasks.flatMap((task) => completionOf(task, windowStart, windowEnd) ?? []);
  const types = [...new Set(completions.map((c) => c.taskType))].sort();
  const perWeek = new Map<string, number>();
  for (const c of completions) {
    const week = weekOf(c.at.slice(0, 10));
    perWeek.set(week, (perWeek.get(week) ?? 0) + 1);
  }
  const weeks: string[] = [];
  for (let week = weekOf(query.from); week <= query.to; week = addDays(week, 7)) weeks.push(week);
  return {
    project: data.project.key,
    from: query.from,
    to: query.to,
    as_of: data.asOf,
    overall: summary(completions),
    by_type: types.map((taskType) => ({
      task_type: taskType,
      ...summary(completions.filter((c) => c.taskType === taskType)),
    })),
    throughput: weeks.map((week) => ({ week_start: week, completed: perWeek.get(week) ?? 0 })),
  };
}

// -------------------------------------------------------------------------------------------

export async function velocity(ctx: AppContext, principal: Principal, projectKey: string, query: { as_of?: string }) {
  const project = await projectFor(ctx.db, principal, { key: projectKey });
  const sprints = (await repo.sprintsOfProject(ctx.db, project.id)).filter(
    (s): s is typeof s & { start_date: string; end_date: string } =>
      s.state === 'completed' && s.start_date !== null && s.end_date !== null,
  );
  const earliest = sprints.reduce<string | null>(
    (min, s) => (min === null || s.start_date < min ? s.start_date : min),
    null,
  );
  const data = await load(
    ctx,
    principal,
    projectKey,
    query.as_of,
    earliest === null ? null : endOfDay(addDays(earliest, -1)),
    ['status', 'estimate', 'sprint'],
  );
  const closed = sprints.filter((s) => endOfDay(s.end_date) <= data.asOf);
  // Each task under every sprint it was ever in: it cannot count for any other.
  const bySprint = new Map<number, TaskPast[]>();
  for (const task of data.tasks)
    for (const id of new Set([task.sprint.initial, ...task.sprint.changes.map((c) => c.value)]))
      if (id !== null) {
        const list = bySprint.get(id);
        if (list) list.push(task);
        else bySprint.set(id, [task]);
      }
  const rows = closed.map((sprint) => {
    const start = endOfDay(addDays(sprint.start_date, -1));
    const end = endOfDay(sprint.end_date);
    let committed = 0;
    let completed = 0;
    let completedTasks = 0;
    for (const task of bySprint.get(sprint.id) ?? []) {
      if (exists(task, start) && valueAt(task.sprint, start) === sprint.id) committed += estimateAt(task, start);
      if (exists(task, end) && valueAt(task.sprint, end) === sprint.id && isDone(task, end)) {
        completed += estimateAt(task, end);
        completedTasks++;
      }
    }
    return {
      id: sprint.id,
      name: sprint.name,
      start_date: sprint.start_date,
      end_date: sprint.end_date,
      committed_estimate: round(committed),
      completed_estimate: round(completed),
      completed_tasks: completedTasks,
    };
  });
  const lastThree = rows.slice(-3);
  return {
    project: data.project.key,
    unit: data.unit,
    as_of: data.asOf,
    sprints: rows,
    average_completed_estimate: lastThree.length
      ? round(lastThree.reduce((sum, r) => sum + r.completed_estimate, 0) / lastThree.length)
      : null,
  };
}
