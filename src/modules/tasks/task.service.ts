import { sql } from 'kysely';
import { isoFromMicros } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import { type BeforeCommit, presentedBeforeCommit, transactionWith } from '../../db/before-commit.ts';
import type { Trx } from '../../db/database.ts';
import { prepared } from '../../db/prepared.ts';
import type { ActionOrigin } from '../../events/record-event.ts';
import { ApiError, invalid, notFound } from '../../http/errors.ts';
import { type PageRequest } from '../../http/pagination.ts';
import { paginate } from '../../db/paginate.ts';
import { removeStoredFiles, storageNamesOf } from '../attachments/attachment.files.ts';
import type { Principal } from '../auth/principal.ts';
import { lockFields } from '../custom-fields/custom-fields.repository.ts';
import { isStoredId } from '../custom-fields/values.ts';
import { authorize, projectFor, type ProjectRef, readableProjectByKey, visibleProjectsOf } from '../../policy/index.ts';
import { TaskInputResolver } from './task-input.ts';
import { etagOf, presentTaskRow, presentTasks, type TaskSnapshot } from './task.presenter.ts';
import { lockProject } from '../projects/projects.repository.ts';
import { findTaskRow, findVisibleTaskRef, lockTask, selectTaskRows, selectTaskRowsWithExtras, type TaskRef, type TaskRow, type TaskRowWithExtras } from './task.repository.ts';
import type { FollowStateJson, TaskCreateInput, TaskJson, TaskListFilters, TaskUpdateInput } from './task.schemas.ts';
import { applyTaskUpdate, createTaskRecord, deleteTaskRecord, type TaskValues } from './task-writes.ts';

/** Who acts, and the origin stamped on the events the action produces. */
export interface Caller {
  principal: Principal;
  origin: ActionOrigin;
}

const writableProject = (ctx: AppContext, principal: Principal, key: string): Promise<ProjectRef> =>
  projectFor(ctx.db, principal, { key }, 'project.contribute', 'tasks');

/** The task if the caller can see it (404 otherwise): the entry point of every task sub-resource. */
export async function visibleTask(ctx: AppContext, principal: Principal, key: string): Promise<TaskRef> {
  const task = await findVisibleTaskRef(ctx.db, principal, key);
  if (!task) throw notFound('Task');
  return task;
}

/** As visibleTask, and the caller may change it (project viewers get 403). */
export async function writableTask(ctx: AppContext, principal: Principal, key: string): Promise<TaskRef> {
  const task = await visibleTask(ctx, principal, key);
  authorize(principal, 'project.contribute', { kind: 'project', project: task.project }, 'tasks');
  return task;
}

/** `If-Match` (RFC 9110): `*` or a list of entity tags; W/ prefixes are tolerated because proxies add them. */
function assertIfMatch(ifMatch: string | undefined, row: TaskRow): void {
  if (ifMatch === undefined) return;
  const current = etagOf(row.version);
  const tags = ifMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (!tags.includes('*') && !tags.includes(current)) {
    throw new ApiError('PRECONDITION_FAILED', 'The task changed since you read it (If-Match does not match its ETag). Read it again and retry.', {
      etag: current,
    });
  }
}

const blank = (errors: Record<string, string>) => Object.keys(errors).length === 0;

/** Custom field ids a set of inputs writes; their definitions are locked before any task (see lockFields). */
const customFieldIds = (inputs: Array<{ custom_fields?: Record<string, unknown> }>) =>
  [...new Set(inputs.flatMap((input) => Object.keys(input.custom_fields ?? {}).map(Number).filter(isStoredId)))];

// ---------------------------------------------------------------- reads

const ORDERABLE = {
  created_at: 't.created_at',
  updated_at: 't.updated_at',
  priority: 'pr.position',
  // An output alias (see tasksQuery), so tasks without a due date sort last on both databases.
  due_date: 'due_sort',
  key: 't.number',
};

function tasksQuery(ctx: AppContext) {
  return selectTaskRows(ctx.db).select(sql<string>`coalesce(t.due_date, '9999-12-31')`.as('due_sort'));
}

/** Two statements whatever the page size: the page of rows, then the extras of exactly those rows. */
async function pageOfTasks(ctx: AppContext, query: ReturnType<typeof tasksQuery>, page: PageRequest) {
  const { rows, pagination } = await paginate(query, page, { idColumn: 't.id', orderable: ORDERABLE, defaultOrdering: 'key' });
  return { data: await presentTasks(ctx.db, ctx.dialect, rows), pagination };
}

const csv = (value: string) => value.split(',').map((part) => part.trim()).filter(Boolean);

/** ISO 8601 with any offset -> the stored form (UTC, microseconds), which compares as text. */
function storedTimestamp(field: string, value: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw invalid({ [field]: 'not a valid ISO 8601 timestamp' });
  const fraction = /\.(\d+)/.exec(value)?.[1] ?? '';
  return isoFromMicros(ms * 1000 + Number(fraction.slice(3, 6).padEnd(3, '0')));
}

export async function listTasks(ctx: AppContext, principal: Principal, projectKey: string, filters: TaskListFilters, page: PageRequest) {
  const project = await readableProjectByKey(ctx.db, principal, projectKey);
  let query = tasksQuery(ctx).where('t.project_id', '=', project.id);
  if (filters.status) query = query.where('s.name', 'in', csv(filters.status));
  if (filters.status_category) query = query.where('s.category', 'in', csv(filters.status_category) as Array<'todo' | 'in_progress' | 'done'>);
  if (filters.task_type) query = query.where('tt.name', 'in', csv(filters.task_type));
  if (filters.priority) query = query.where('pr.name', 'in', csv(filters.priority));
  for (const [field, column] of [['assignee', 't.assignee_id'], ['milestone', 't.milestone_id'], ['sprint', 't.sprint_id']] as const) {
    const value = filters[field];
    if (value === undefined) continue;
    if (value === 'none') {
      query = query.where(column, 'is', null);
      continue;
    }
    const id = Number(value);
    if (id > 2147483647) throw invalid({ [field]: 'not a valid id' });
    query = query.where(column, '=', id);
  }
  if (filters.parent) query = filters.parent === 'none' ? query.where('t.parent_id', 'is', null) : query.where('pt.key', '=', filters.parent);
  if (filters.label) {
    const names = csv(filters.label);
    // Labels belong to one project: naming it keeps the subquery to this project's labelled
    // tasks instead of every task of every project with a label of that name (bench/).
    query = query.where('t.id', 'in', (eb) =>
      eb
        .selectFrom('task_labels as tl')
        .innerJoin('labels as l', 'l.id', 'tl.label_id')
        .select('tl.task_id')
        .where('l.project_id', '=', project.id)
        .where('l.name', 'in', names),
    );
  }
  if (filters.updated_since) query = query.where('t.updated_at', '>=', storedTimestamp('updated_since', filters.updated_since));
  if (filters.due_before) query = query.where('t.due_date', '<=', filters.due_before);
  if (filters.due_after) query = query.where('t.due_date', '>=', filters.due_after);
  return pageOfTasks(ctx, query, page);
}

type TasksByKey = (key: string) => Promise<TaskRowWithExtras[]>;

/** The hottest read (bench/): one precompiled statement on the key index. */
function tasksByKey(ctx: AppContext): TasksByKey {
  const reads = ctx.state.preparedReads;
  let run = reads.get('tasksByKey') as TasksByKey | undefined;
  if (!run) {
    const dialect = ctx.dialect;
    run = prepared(ctx.db, (db, key: string) => selectTaskRowsWithExtras(db, dialect).where('t.key', '=', key), 1);
    reads.set('tasksByKey', run);
  }
  return run;
}

export async function getTask(ctx: AppContext, principal: Principal, key: string): Promise<{ task: TaskJson; version: number }> {
  // Keys are unique per workspace, not across them: the one in a project the caller sees (cached), else 404.
  // Filtering by project here rather than in SQL keeps SQLite on the key index.
  const rows = await tasksByKey(ctx)(key);
  const visible = await visibleProjectsOf(ctx.db, principal);
  const row = rows.find((r) => visible.byId.has(r.project_id));
  if (!row) throw notFound('Task');
  return { task: presentTaskRow(row, row), version: row.version };
}

export async function listSubtasks(ctx: AppContext, principal: Principal, key: string, page: PageRequest) {
  const ref = await visibleTask(ctx, principal, key);
  return pageOfTasks(ctx, tasksQuery(ctx).where('t.parent_id', '=', ref.id), page);
}

// ---------------------------------------------------------------- writes

/** Creates one task in an open transaction; a bad input throws before anything is written. */
async function createOne(trx: Trx, ctx: AppContext, origin: ActionOrigin, project: ProjectRef, resolver: TaskInputResolver, input: TaskCreateInput) {
  // Numbering and hierarchy checks hold the project row from here to commit (see lockProject).
  await lockProject(trx, ctx.dialect, project.id);
  await lockFields(trx, ctx.dialect, customFieldIds([input]), 'share');
  const { changes, errors } = await resolver.resolve(input, null);
  if (!blank(errors)) throw invalid(errors);
  const values: TaskValues = {
    title: input.title,
    description: '',
    assignee_id: null,
    due_date: null,
    milestone_id: null,
    sprint_id: null,
    parent_id: null,
    label_ids: [],
    custom_fields: {},
    ...(await resolver.defaults()),
    ...changes,
  };
  return createTaskRecord(trx, ctx, origin, project, values);
}

async function assertTransition(trx: Trx, project: ProjectRef, current: TaskRow, toStatusId: number): Promise<void> {
  const allowed =
    project.workflow_id !== null &&
    (await trx
      .selectFrom('transitions')
      .select('id')
      .where('workflow_id', '=', project.workflow_id)
      .where('from_status_id', '=', current.status_id)
      .where('to_status_id', '=', toStatusId)
      .executeTakeFirst());
  if (allowed) return;
  const to = await trx.selectFrom('statuses').select('name').where('id', '=', toStatusId).executeTakeFirstOrThrow();
  throw new ApiError('INVALID_TRANSITION', `The project's workflow has no transition from "${current.status}" to "${to.name}".`, {
    from: current.status,
    to: to.name,
  });
}

/** Updates one locked task; every check runs before the first write. */
async function updateOne(
  trx: Trx,
  ctx: AppContext,
  origin: ActionOrigin,
  project: ProjectRef,
  resolver: TaskInputResolver,
  current: TaskRow,
  input: TaskUpdateInput,
) {
  const { changes, errors } = await resolver.resolve(input, current);
  if (!blank(errors)) throw invalid(errors);
  // Same status is a no-op, not a transition (spec 3).
  if (changes.status_id !== undefined && changes.status_id !== current.status_id) await assertTransition(trx, project, current, changes.status_id);
  return applyTaskUpdate(trx, ctx, origin, current.id, changes);
}

/**
 * Locks the task and reads it. Locks are always taken in one order: the project row (when the
 * tree may change), the custom field definitions being written, then tasks.
 */
async function lockAndRead(trx: Trx, ctx: AppContext, ref: TaskRef, treeChanges: boolean, fieldIds: number[] = []): Promise<TaskRow> {
  if (treeChanges) await lockProject(trx, ctx.dialect, ref.project.id);
  await lockFields(trx, ctx.dialect, fieldIds, 'share');
  await lockTask(trx, ctx.dialect, ref.id);
  const row = await findTaskRow(trx, ref.id);
  if (!row) throw notFound('Task');
  return row;
}

export async function createTask(ctx: AppContext, caller: Caller, projectKey: string, input: TaskCreateInput, beforeCommit?: BeforeCommit<TaskSnapshot>): Promise<TaskSnapshot> {
  const project = await writableProject(ctx, caller.principal, projectKey);
  return transactionWith(ctx.db, (trx) => createOne(trx, ctx, caller.origin, project, new TaskInputResolver(trx, project), input), beforeCommit);
}

export async function createSubtask(
  ctx: AppContext,
  caller: Caller,
  parentKey: string,
  input: Omit<TaskCreateInput, 'parent'>,
  beforeCommit?: BeforeCommit<TaskSnapshot>,
): Promise<TaskSnapshot> {
  const parent = await writableTask(ctx, caller.principal, parentKey);
  return transactionWith(ctx.db, (trx) => createOne(trx, ctx, caller.origin, parent.project, new TaskInputResolver(trx, parent.project), { ...input, parent: parent.key }), beforeCommit);
}

export async function updateTask(
  ctx: AppContext,
  caller: Caller,
  key: string,
  input: TaskUpdateInput,
  ifMatch?: string,
  beforeCommit?: BeforeCommit<TaskSnapshot>,
): Promise<TaskSnapshot> {
  const ref = await writableTask(ctx, caller.principal, key);
  return transactionWith(ctx.db, async (trx) => {
    const current = await lockAndRead(trx, ctx, ref, input.parent !== undefined, customFieldIds([input]));
    assertIfMatch(ifMatch, current);
    return updateOne(trx, ctx, caller.origin, ref.project, new TaskInputResolver(trx, ref.project), current, input);
  }, beforeCommit);
}

export function assignTask(
  ctx: AppContext,
  caller: Caller,
  key: string,
  assignee: number | null,
  ifMatch?: string,
  beforeCommit?: BeforeCommit<TaskSnapshot>,
): Promise<TaskSnapshot> {
  return updateTask(ctx, caller, key, { assignee }, ifMatch, beforeCommit);
}

export async function deleteTask(ctx: AppContext, caller: Caller, key: string, ifMatch?: string): Promise<void> {
  const ref = await writableTask(ctx, caller.principal, key);
  // Attachment rows go with the task (cascade); their files are removed once that has committed.
  const files = await ctx.db.transaction().execute(async (trx) => {
    const current = await lockAndRead(trx, ctx, ref, true);
    assertIfMatch(ifMatch, current);
    const names = await storageNamesOf(trx, { taskId: ref.id });
    await deleteTaskRecord(trx, ctx, caller.origin, ref.id);
    return names;
  });
  await removeStoredFiles(ctx, files);
}

// ---------------------------------------------------------------- bulk

export interface BulkItemError {
  index: number;
  key?: string;
  code: string;
  message: string;
  fields: Record<string, string>;
  [detail: string]: unknown;
}

/** The field a non-validation refusal is about, so every item error names one. */
const FIELD_OF_CODE: Record<string, string> = { INVALID_TRANSITION: 'status', NOT_FOUND: 'key' };

function itemError(index: number, key: string | undefined, error: ApiError): BulkItemError {
  const { fields, ...rest } = error.details as { fields?: Record<string, string> };
  return {
    index,
    ...(key !== undefined ? { key } : {}),
    code: error.code,
    message: error.message,
    fields: fields ?? { [FIELD_OF_CODE[error.code] ?? 'item']: error.message },
    ...rest,
  };
}

export function bulkFailure(items: BulkItemError[]): ApiError {
  const noun = items.length === 1 ? 'item was' : 'items were';
  return new ApiError('VALIDATION_ERROR', `${items.length} ${noun} refused; nothing was changed. See details.items.`, { items });
}

/**
 * Runs every item in one transaction. `start` prepares the transaction (locks, lookups) and
 * returns the per-item step. A refused item does not stop the others from being checked (so
 * the caller learns about all of them), but any refusal rolls everything back.
 */
async function runBulk<I, R>(
  ctx: AppContext,
  items: I[],
  keyOf: (item: I) => string | undefined,
  start: (trx: Trx) => Promise<(item: I) => Promise<R>>,
  beforeCommit?: BeforeCommit<R[]>,
): Promise<R[]> {
  return transactionWith(ctx.db, async (trx) => {
    const run = await start(trx);
    const results: R[] = [];
    const failures: BulkItemError[] = [];
    for (const [index, item] of items.entries()) {
      try {
        results.push(await run(item));
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        failures.push(itemError(index, keyOf(item), error));
      }
    }
    if (failures.length) throw bulkFailure(failures);
    return results;
  }, beforeCommit);
}

const tasksOf = (snapshots: TaskSnapshot[]) => snapshots.map((s) => s.task);

export async function bulkCreate(ctx: AppContext, caller: Caller, projectKey: string, items: TaskCreateInput[], beforeCommit?: BeforeCommit<TaskJson[]>): Promise<TaskJson[]> {
  const project = await writableProject(ctx, caller.principal, projectKey);
  const created = await runBulk(ctx, items, () => undefined, async (trx) => {
    const resolver = new TaskInputResolver(trx, project);
    return (item) => createOne(trx, ctx, caller.origin, project, resolver, item);
  }, presentedBeforeCommit(beforeCommit, tasksOf));
  return tasksOf(created);
}

export async function bulkUpdate(
  ctx: AppContext,
  caller: Caller,
  projectKey: string,
  items: Array<TaskUpdateInput & { key: string }>,
  beforeCommit?: BeforeCommit<TaskJson[]>,
): Promise<TaskJson[]> {
  const project = await writableProject(ctx, caller.principal, projectKey);
  const updated = await runBulk(ctx, items, (item) => item.key, async (trx) => {
    const resolver = new TaskInputResolver(trx, project);
    if (items.some((item) => item.parent !== undefined)) await lockProject(trx, ctx.dialect, project.id);
    await lockFields(trx, ctx.dialect, customFieldIds(items), 'share');
    // Every task of the call is locked up front in id order, so two bulk calls touching the
    // same tasks in different orders queue instead of deadlocking.
    const keys = [...new Set(items.map((item) => item.key))];
    const tasks = await trx.selectFrom('tasks').select(['id', 'key']).where('project_id', '=', project.id).where('key', 'in', keys).orderBy('id').execute();
    for (const task of tasks) await lockTask(trx, ctx.dialect, task.id);
    const idOf = new Map(tasks.map((t) => [t.key, t.id]));
    return async ({ key, ...input }) => {
      const id = idOf.get(key);
      if (id === undefined) throw new ApiError('NOT_FOUND', `No task ${key} in project ${project.key}.`);
      const current = await findTaskRow(trx, id);
      if (!current) throw new ApiError('NOT_FOUND', `No task ${key} in project ${project.key}.`);
      return updateOne(trx, ctx, caller.origin, project, resolver, current, input);
    };
  }, presentedBeforeCommit(beforeCommit, tasksOf));
  return tasksOf(updated);
}

// ---------------------------------------------------------------- activity and followers

export async function listActivities(ctx: AppContext, principal: Principal, key: string, page: PageRequest) {
  const ref = await visibleTask(ctx, principal, key);
  const query = ctx.db
    .selectFrom('activities as a')
    .leftJoin('users as u', 'u.id', 'a.actor_id')
    .select(['a.id', 'a.action', 'a.field', 'a.from_value', 'a.to_value', 'a.created_at', 'u.id as actor_id', 'u.name as actor_name'])
    .where('a.task_id', '=', ref.id);
  const { rows, pagination } = await paginate(query, page, {
    idColumn: 'a.id',
    orderable: { created_at: 'a.created_at' },
    defaultOrdering: '-created_at',
  });
  const data = rows.map((r) => ({
    id: r.id,
    action: r.action,
    field: r.field,
    from: r.from_value === null ? null : (JSON.parse(r.from_value) as unknown),
    to: r.to_value === null ? null : (JSON.parse(r.to_value) as unknown),
    actor: r.actor_id === null ? null : { id: r.actor_id, name: r.actor_name! },
    created_at: r.created_at,
  }));
  return { data, pagination };
}

/**
 * Following is the token's account subscribing itself; it changes nothing on the task, so
 * project viewers may follow too (like watching an issue you can read).
 */
export async function follow(ctx: AppContext, principal: Principal, key: string, beforeCommit?: BeforeCommit<FollowStateJson>): Promise<FollowStateJson> {
  const ref = await visibleTask(ctx, principal, key);
  return transactionWith(ctx.db, async (trx) => {
    await trx
      .insertInto('task_followers')
      .values({ task_id: ref.id, user_id: principal.userId, created_at: ctx.clock.nowIso() })
      .onConflict((oc) => oc.columns(['task_id', 'user_id']).doNothing())
      .execute();
    const row = await trx
      .selectFrom('task_followers')
      .select('created_at')
      .where('task_id', '=', ref.id)
      .where('user_id', '=', principal.userId)
      .executeTakeFirstOrThrow();
    return { task: ref.key, user: principal.userId, following: true, followed_at: row.created_at };
  }, beforeCommit);
}

export async function unfollow(ctx: AppContext, principal: Principal, key: string): Promise<void> {
  const ref = await visibleTask(ctx, principal, key);
  await ctx.db.deleteFrom('task_followers').where('task_id', '=', ref.id).where('user_id', '=', principal.userId).execute();
}

export async function listFollowers(ctx: AppContext, principal: Principal, key: string, page: PageRequest) {
  const ref = await visibleTask(ctx, principal, key);
  const query = ctx.db
    .selectFrom('task_followers as f')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select(['f.id', 'u.id as user', 'u.name', 'u.kind', 'f.created_at as followed_at'])
    .where('f.task_id', '=', ref.id);
  const { rows, pagination } = await paginate(query, page, {
    idColumn: 'f.id',
    orderable: { followed_at: 'f.created_at' },
    defaultOrdering: 'followed_at',
  });
  return { data: rows.map(({ id: _id, ...follower }) => follower), pagination };
}
