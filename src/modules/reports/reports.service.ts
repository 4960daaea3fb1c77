import type { AppContext } from '../../context.ts';
import { invalid, notFound } from '../../http/errors.ts';
import { DEFAULT_LIMIT, decodeCursor, encodeCursor } from '../../http/pagination.ts';
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
  valueAt,
} from './history.ts';
import { pastOfProject, type TaskPast } from './history-cache.ts';
import * as repo from './reports.repository.ts';

/**
 * Reports computed from the tasks' activity history (docs/api/planning.md#reports), as they
 * stood at `as_of`. Days are UTC days.
 */

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

/** The project's tasks that existed at `asOf`, with their pasts (history-cache.ts). */
async function load(
  ctx: AppContext,
  principal: Principal,
  projectKey: string,
  asOfParam: string | undefined,
): Promise<Loaded> {
  const project = await projectFor(ctx.db, principal, { key: projectKey });
  const now = ctx.clock.nowIso();
  const asked = asOfParam === undefined ? now : stampOf(Date.parse(asOfParam));
  const asOf = asked < now ? asked : now;
  const [{ tasks, names }, unit] = await Promise.all([
    pastOfProject(ctx.db, ctx.dialect, project.id),
    repo.estimateUnitOf(ctx.db, project.id),
  ]);
  return { project, unit, asOf, tasks: tasks.filter((task) => task.createdAt <= asOf), names };
}

/** Whether a task was ever in `sprintId`, by its sprint's past: tasks that never were cannot count for it. */
const everIn = (task: TaskPast, sprintId: number) =>
  task.sprint.initial === sprintId || task.sprint.changes.some((c) => c.value === sprintId);

const exists = (task: TaskPast, at: Stamp) => task.createdAt <= at;
const isDone = (task: TaskPast, at: Stamp) => valueAt(task.status, at).category === 'done';
const estimateAt = (task: TaskPast, at: Stamp) => valueAt(task.estimate, at) ?? 0;
/** The index of the first of `stamps` (ascending) not before `at`; their count when there is none. */
function firstAtOrAfter(stamps: Stamp[], at: Stamp): number {
  let low = 0;
  let high = stamps.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (stamps[mid]! < at) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The bounds after the first (ascending) at which one of the task's fields has changed since the bound before, in order. */
function boundsOfChanges(task: TaskPast, bounds: Stamp[]): number[] {
  const found = new Set<number>();
  for (const at of [
    task.createdAt,
    ...task.status.changes.map((c) => c.at),
    ...task.estimate.changes.map((c) => c.at),
    ...task.sprint.changes.map((c) => c.at),
  ]) {
    const i = firstAtOrAfter(bounds, at);
    if (i > 0 && i < bounds.length) found.add(i);
  }
  return [...found].sort((a, b) => a - b);
}

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
  const data = await load(ctx, principal, projectKey, query.as_of);
  const scoped = sprint === null ? data.tasks : data.tasks.filter((task) => everIn(task, sprint.id));
  const inScope = (task: TaskPast, at: Stamp) =>
    exists(task, at) && (sprint === null || valueAt(task.sprint, at) === sprint.id);
  // Bound 0 is the end of the day before `from`, bound i the sample of the i-th day.
  const dates = daysUpTo(from, to, data.asOf);
  const bounds = [endOfDay(addDays(from, -1)), ...dates.map((date) => sampleOf(date, data.asOf))];
  const remainingTasks = new Array<number>(bounds.length).fill(0);
  const remainingEstimate = new Array<number>(bounds.length).fill(0);
  const added = bounds.map(() => ({ tasks: 0, estimate: 0 }));
  const removed = bounds.map(() => ({ tasks: 0, estimate: 0 }));
  const stateAt = (task: TaskPast, at: Stamp) => {
    const scoped = inScope(task, at);
    return { scoped, open: scoped && !isDone(task, at), estimate: scoped ? estimateAt(task, at) : 0 };
  };
  // Each task is looked at only at the bounds where one of its fields changed (in between it is
  // the same), and adds what changed there to that bound: one pass over its changes, not one per day.
  for (const task of scoped) {
    let before = stateAt(task, bounds[0]!);
    if (before.open) {
      remainingTasks[0]!++;
      remainingEstimate[0]! += before.estimate;
    }
    for (const i of boundsOfChanges(task, bounds)) {
      const state = stateAt(task, bounds[i]!);
      remainingTasks[i]! += Number(state.open) - Number(before.open);
      remainingEstimate[i]! += (state.open ? state.estimate : 0) - (before.open ? before.estimate : 0);
      if (state.scoped && !before.scoped) {
        added[i]!.tasks++;
        added[i]!.estimate += state.estimate;
      } else if (before.scoped && !state.scoped) {
        removed[i]!.tasks++;
        removed[i]!.estimate += before.estimate;
      }
      before = state;
    }
  }
  const allDays = datesBetween(from, to);
  const start = remainingEstimate[0]!;
  let tasksLeft = remainingTasks[0]!;
  let estimateLeft = start;
  const days = dates.map((date, day) => {
    const i = day + 1;
    tasksLeft += remainingTasks[i]!;
    estimateLeft += remainingEstimate[i]!;
    const ideal = allDays.length === 1 ? 0 : (start * (allDays.length - 1 - day)) / (allDays.length - 1);
    return {
      date,
      remaining_estimate: round(estimateLeft),
      remaining_tasks: tasksLeft,
      added_tasks: added[i]!.tasks,
      added_estimate: round(added[i]!.estimate),
      removed_tasks: removed[i]!.tasks,
      removed_estimate: round(removed[i]!.estimate),
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

export interface FlowQuery extends RangeQuery {
  limit?: number;
  cursor?: string;
}

export async function flow(ctx: AppContext, principal: Principal, projectKey: string, query: FlowQuery) {
  checkRange(query.from, query.to);
  const afterId = decodeCursor(query.cursor ?? '');
  const limit = query.limit ?? DEFAULT_LIMIT;
  const data = await load(ctx, principal, projectKey, query.as_of);
  const dates = daysUpTo(query.from, query.to, data.asOf);
  const samples = dates.map((date) => sampleOf(date, data.asOf));
  // Per status, how its count changes at each sample: each task adds its moves, once.
  const moves = new Map<string, number[]>();
  const move = (status: ReportStatus, i: number, by: number) => {
    let counts = moves.get(status.id);
    if (!counts) moves.set(status.id, (counts = new Array<number>(samples.length).fill(0)));
    counts[i]! += by;
  };
  for (const task of data.tasks) {
    const first = firstAtOrAfter(samples, task.createdAt);
    if (first === samples.length) continue;
    let status = valueAt(task.status, samples[first]!);
    move(status, first, 1);
    for (const change of task.status.changes) {
      if (change.at <= samples[first]!) continue;
      const i = firstAtOrAfter(samples, change.at);
      if (i === samples.length) break;
      move(status, i, -1);
      status = change.value;
      move(status, i, 1);
    }
  }
  const running = new Map([...moves.keys()].map((id) => [id, 0]));
  const days = dates.map((date, i) => {
    const counts = new Map<string, number>();
    for (const [id, changes] of moves) {
      const count = running.get(id)! + changes[i]!;
      running.set(id, count);
      if (count > 0) counts.set(id, count);
    }
    return { date, counts };
  });

  // Time in each status within the range (up to as_of), for the tasks that were not done throughout it.
  const windowStart = `${query.from}T00:00:00.000000Z`;
  const windowEnd = sampleOf(query.to, data.asOf);
  const tasks: Array<{ id: number; key: string; title: string; hours: Map<string, number> }> = [];
  for (const task of data.tasks) {
    // One past the page tells whether there is more.
    if (tasks.length > limit) break;
    if (task.id <= afterId || !exists(task, windowEnd)) continue;
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
    if (!allDone) tasks.push({ id: task.id, key: task.key, title: task.title, hours });
  }
  const hasMore = tasks.length > limit;
  const page = tasks.slice(0, limit);

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
    tasks: page.map(({ key, title, hours }) => ({
      key,
      title,
      hours_in_status: Object.fromEntries(
        shown.filter((s) => hours.has(s.id)).map((s) => [s.name, Math.round(hours.get(s.id)! * 100) / 100]),
      ),
    })),
    tasks_pagination: { limit, next_cursor: encodeCursor(page.at(-1)?.id ?? afterId), has_more: hasMore },
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
  const data = await load(ctx, principal, projectKey, query.as_of);
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
  const data = await load(ctx, principal, projectKey, query.as_of);
  const closed = sprints.filter((s) => endOfDay(s.end_date) <= data.asOf);
  // Each task under every sprint it was ever in: it cannot count for any other.
  const bySprint = new Map<number, TaskPast[]>();
  const file = (task: TaskPast, id: number | null) => {
    if (id === null) return;
    const list = bySprint.get(id);
    // Tasks come one at a time, so a task already filed under this sprint is its list's last.
    if (!list) bySprint.set(id, [task]);
    else if (list.at(-1) !== task) list.push(task);
  };
  for (const task of data.tasks) {
    file(task, task.sprint.initial);
    for (const change of task.sprint.changes) file(task, change.value);
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
