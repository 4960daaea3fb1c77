import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { textTerms } from '../../db/text-terms.ts';
import { invalid } from '../../http/errors.ts';
import { canonicalTimeZone } from '../standups/team-day.ts';
import type { TaskJson } from '../tasks/task.schemas.ts';
import type { TypedQuery } from './ast.ts';
import { bindQuery } from './bind.ts';
import type { Bound } from './bound.ts';
import { checkQuery } from './check.ts';
import { compilePredicate, type TaskFacts, type TaskPredicate } from './predicate.ts';
import { queryLookups, taskFactsExtras } from './query.repository.ts';

/**
 * The query language's one entry point for the rest of the service: check a query's text once,
 * then bind it for each use (a caller, the projects it may see, the clock and time zone), and
 * run it as SQL (query.repository.ts) or as a predicate over tasks (predicate.ts).
 */
export { checkQuery };

/** Who runs a query, and over which projects: the caller's visible ones, or fewer. */
export interface QueryScope {
  accountId: number;
  organizationId: number;
  projects: Array<{ id: number; key: string }>;
  /** IANA name; see timeZoneParameter. */
  timeZone: string;
}

/** The `tz` parameter: an IANA time zone (400 otherwise), UTC when absent. */
export function timeZoneParameter(tz: string | undefined): string {
  if (tz === undefined || tz === '') return 'UTC';
  const zone = canonicalTimeZone(tz);
  if (!zone) throw invalid({ tz: 'not an IANA time zone name, e.g. Europe/Berlin' });
  return zone;
}

export function bindFor(ctx: AppContext, db: Executor, query: TypedQuery, scope: QueryScope): Promise<Bound | null> {
  const projectIds = scope.projects.map((p) => p.id);
  return bindQuery(query, {
    callerId: scope.accountId,
    projects: scope.projects,
    time: { nowMs: ctx.clock.nowMs(), timeZone: scope.timeZone },
    lookups: queryLookups(db, scope.organizationId, projectIds),
  });
}

export function predicateFor(ctx: AppContext, db: Executor, bound: Bound | null): Promise<TaskPredicate> {
  return compilePredicate(bound, textTerms(db, ctx.dialect));
}

/**
 * What the predicate needs of tasks given as JSON (with their ids): followers and open blockers
 * as they are now, in the projects of `scope`, and the terms of their texts when it uses them.
 */
export async function taskFacts(
  ctx: AppContext,
  db: Executor,
  tasks: Array<{ id: number; task: TaskJson }>,
  projectIds: number[],
  predicate: TaskPredicate,
): Promise<TaskFacts[]> {
  const extras = await taskFactsExtras(
    db,
    tasks.map((t) => t.id),
    projectIds,
  );
  const facts: TaskFacts[] = tasks.map(({ id, task }) => ({
    ...task,
    followers: extras.followers.get(id) ?? [],
    blocked: extras.blocked.has(id),
  }));
  if (predicate.usesText) {
    const terms = await textTerms(db, ctx.dialect).terms(tasks.flatMap(({ task }) => [task.title, task.description]));
    facts.forEach((fact, i) => (fact.terms = { title: terms[2 * i]!, description: terms[2 * i + 1]! }));
  }
  return facts;
}

/** A task as one change found it (`before`) and left it (`after`); null where it did not exist. */
export interface TaskStates {
  taskId: number;
  before: TaskJson | null;
  after: TaskJson | null;
}

/**
 * Whether each task matched `query` before and after its change, judged in memory for `scope`
 * (webhook filters, the changes feed). A state matches only in a project of the scope.
 * Followers and open blockers are not in task JSON: both states are judged by them as they are now.
 */
export async function matchStates(
  ctx: AppContext,
  db: Executor,
  query: TypedQuery,
  scope: QueryScope,
  states: TaskStates[],
): Promise<Array<{ before: boolean; after: boolean }>> {
  const predicate = await predicateFor(ctx, db, await bindFor(ctx, db, query, scope));
  const keys = new Set(scope.projects.map((p) => p.key));
  const tested = states.flatMap(({ taskId, before, after }) =>
    [before, after].flatMap((task) => (task !== null && keys.has(task.project) ? [{ id: taskId, task }] : [])),
  );
  const facts = await taskFacts(
    ctx,
    db,
    tested,
    scope.projects.map((p) => p.id),
    predicate,
  );
  const matched = new Set(tested.filter((_, i) => predicate(facts[i]!)).map((t) => t.task));
  return states.map(({ before, after }) => ({
    before: before !== null && matched.has(before),
    after: after !== null && matched.has(after),
  }));
}
