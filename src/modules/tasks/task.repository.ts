import { sql } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import type { Principal } from '../../identity/principal.ts';
import type { ProjectRef } from '../../policy/index.ts';
import { visibleProjects } from '../../policy/index.ts';

const tasksTable = (db: Executor) => db.selectFrom('tasks as t');

/** A query on the tasks table alone (`t`): what lists filter before anything is joined to it. */
export type TasksQuery = ReturnType<typeof tasksTable>;

/** Task rows with everything the task JSON needs except labels (fetched per page, see presenter). */
export function selectTaskRows(db: Executor) {
  return taskRowsOf(tasksTable(db));
}

/** A task's own columns; the names that go with them (project key, type, priority, status, parent key) are read by each query its own way. */
const TASK_COLUMNS = [
  't.id',
  't.project_id',
  't.number',
  't.key',
  't.title',
  't.description',
  't.task_type_id',
  't.priority_id',
  't.status_id',
  't.assignee_id',
  't.parent_id',
  't.due_date',
  't.start_date',
  't.estimate',
  't.milestone_id',
  't.sprint_id',
  't.version',
  't.created_by',
  't.created_at',
  't.updated_at',
] as const;

function taskRowsOf(tasks: TasksQuery) {
  return tasks
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .innerJoin('statuses as s', 's.id', 't.status_id')
    .innerJoin('task_types as tt', 'tt.id', 't.task_type_id')
    .innerJoin('priorities as pr', 'pr.id', 't.priority_id')
    .leftJoin('tasks as pt', 'pt.id', 't.parent_id')
    .select([
      ...TASK_COLUMNS,
      'p.key as project_key',
      'tt.name as task_type',
      'pr.name as priority',
      's.name as status',
      's.category as status_category',
      'pt.key as parent_key',
    ]);
}

export type TaskRow = Awaited<ReturnType<ReturnType<typeof selectTaskRows>['executeTakeFirstOrThrow']>>;

/**
 * Reads: a task's labels, custom field values and logged minutes as correlated subqueries on
 * indexed task ids, so they come with the row instead of costing a statement each. The lists
 * come back as JSON: text on SQLite, already parsed by the driver on PostgreSQL.
 */
function extrasColumns(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const labels = pg
    ? // Each name by its own lookup: a join here makes PostgreSQL hash every label of the workspace, for each task.
      sql<unknown>`(SELECT coalesce(json_agg((SELECT l.name FROM labels l WHERE l.id = tl.label_id)), '[]') FROM task_labels tl WHERE tl.task_id = t.id)`
    : sql<unknown>`(SELECT json_group_array(l.name) FROM task_labels tl JOIN labels l ON l.id = tl.label_id WHERE tl.task_id = t.id)`;
  const customFields = pg
    ? sql<unknown>`(SELECT coalesce(json_object_agg(v.field_id, CAST(v.value AS json)), '{}') FROM task_custom_values v WHERE v.task_id = t.id)`
    : sql<unknown>`(SELECT json_group_object(CAST(v.field_id AS TEXT), json(v.value)) FROM task_custom_values v WHERE v.task_id = t.id)`;
  const minutes = sql<
    number | string
  >`(SELECT coalesce(sum(te.minutes), 0) FROM time_entries te WHERE te.task_id = t.id)`;
  // The subtree below the task, null without subtasks (one probe of tasks_parent_idx). The task's
  // own figures are added by the presenter, from the row.
  const object = pg ? sql.raw('json_build_object') : sql.raw('json_object');
  const rollup = sql<unknown>`(WITH RECURSIVE sub(id) AS (SELECT c.id FROM tasks c WHERE c.parent_id = t.id UNION ALL SELECT c.id FROM tasks c JOIN sub ON c.parent_id = sub.id)
    SELECT CASE WHEN count(*) = 0 THEN NULL ELSE ${object}('estimate', coalesce(sum(d.estimate), 0), 'done_estimate', coalesce(sum(CASE WHEN ds.category = 'done' THEN d.estimate END), 0), 'minutes', coalesce(sum((SELECT sum(te.minutes) FROM time_entries te WHERE te.task_id = d.id)), 0)) END
    FROM sub JOIN tasks d ON d.id = sub.id JOIN statuses ds ON ds.id = d.status_id)`;
  return [
    labels.as('labels_json'),
    customFields.as('custom_fields_json'),
    minutes.as('minutes_spent'),
    rollup.as('rollup_json'),
  ] as const;
}

/** Task rows with their extras: a page's rows, once the page is chosen. */
export function selectTaskRowsWithExtras(db: Executor, dialect: Dialect) {
  return selectTaskRows(db).select(extrasColumns(dialect));
}

export type TaskRowWithExtras = Awaited<
  ReturnType<ReturnType<typeof selectTaskRowsWithExtras>['executeTakeFirstOrThrow']>
>;
export type TaskExtrasRow = Pick<
  TaskRowWithExtras,
  'labels_json' | 'custom_fields_json' | 'minutes_spent' | 'rollup_json'
>;

/**
 * The row of one task (as selectTaskRowsWithExtras), its names looked up by correlated
 * subqueries instead of joins. For a single row PostgreSQL would otherwise hash the project's
 * statuses, types and priorities tables on every read (their few rows make a hash join look
 * cheap to it), which cost a fifth of its CPU per read by key (bench/RESULTS.md).
 */
function oneTaskWithExtras(db: Executor, dialect: Dialect) {
  return tasksTable(db)
    .select((eb) => [
      ...TASK_COLUMNS,
      eb
        .selectFrom('projects as p')
        .select('p.key')
        .whereRef('p.id', '=', 't.project_id')
        .$asScalar()
        .$notNull()
        .as('project_key'),
      eb
        .selectFrom('task_types as tt')
        .select('tt.name')
        .whereRef('tt.id', '=', 't.task_type_id')
        .$asScalar()
        .$notNull()
        .as('task_type'),
      eb
        .selectFrom('priorities as pr')
        .select('pr.name')
        .whereRef('pr.id', '=', 't.priority_id')
        .$asScalar()
        .$notNull()
        .as('priority'),
      eb
        .selectFrom('statuses as s')
        .select('s.name')
        .whereRef('s.id', '=', 't.status_id')
        .$asScalar()
        .$notNull()
        .as('status'),
      eb
        .selectFrom('statuses as s')
        .select('s.category')
        .whereRef('s.id', '=', 't.status_id')
        .$asScalar()
        .$notNull()
        .as('status_category'),
      eb.selectFrom('tasks as pt').select('pt.key').whereRef('pt.id', '=', 't.parent_id').$asScalar().as('parent_key'),
    ])
    .select(extrasColumns(dialect));
}

/** One task with its extras, by id: the write paths read it back through a statement compiled once (see loadSnapshot). */
export function taskWithExtras(db: Executor, dialect: Dialect, taskId: number) {
  return oneTaskWithExtras(db, dialect).where('t.id', '=', taskId);
}

/**
 * Every task with this key, one per workspace at most, with its extras, and in the same
 * statement the auth epoch (see src/identity/auth-cache.ts), so the hot read by key is one
 * round trip: a row with only `auth_epoch` when no task has the key. Read through tasksByKey
 * (task-list.repository.ts), compiled once; it stays on the key index.
 */
export function tasksWithKeyAndEpoch(db: Executor, dialect: Dialect, key: string) {
  return db
    .selectFrom('auth_epoch as e')
    .leftJoin(oneTaskWithExtras(db, dialect).where('t.key', '=', key).as('k'), (join) => join.onTrue())
    .select('e.value as auth_epoch')
    .selectAll('k')
    .where('e.id', '=', 1);
}

/**
 * The extras of a page of tasks in one statement, after the page is chosen: inside the page
 * query, SQLite would compute them for every candidate row it sorts, not just the page.
 */
export async function taskExtrasByIds(
  db: Executor,
  dialect: Dialect,
  taskIds: number[],
): Promise<Map<number, TaskExtrasRow>> {
  if (taskIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('tasks as t')
    .select('t.id')
    .select(extrasColumns(dialect))
    .where('t.id', 'in', taskIds)
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export interface TaskRef {
  id: number;
  key: string;
  project: ProjectRef;
}

/** Tasks (`t`) in the projects the caller sees (`p`, with the caller's membership `pm`): what a task's records are found through. */
export function visibleTasks(db: Executor, principal: Principal) {
  return visibleProjects(db, principal).innerJoin('tasks as t', 't.project_id', 'p.id');
}

/** The task with this key in a project the caller can see (invisible = absent, so callers answer 404). */
export async function findVisibleTaskRef(
  db: Executor,
  principal: Principal,
  key: string,
): Promise<TaskRef | undefined> {
  const row = await visibleTasks(db, principal)
    .select([
      't.id as task_id',
      't.key as task_key',
      'p.id',
      'p.key',
      'p.name',
      'p.organization_id',
      'p.workflow_id',
      'pm.role',
    ])
    .where('t.key', '=', key)
    .executeTakeFirst();
  if (!row) return undefined;
  const { task_id, task_key, ...project } = row;
  return { id: task_id, key: task_key, project };
}

/**
 * PostgreSQL: takes the row lock so concurrent writers of one task queue up instead of losing
 * updates. SQLite runs one transaction at a time on its single connection, so nothing to do.
 */
export async function lockTask(db: Executor, dialect: Dialect, taskId: number): Promise<void> {
  if (dialect === 'postgres') await db.selectFrom('tasks').select('id').where('id', '=', taskId).forUpdate().execute();
}

/**
 * For writes of a task's records (comments, attachments): holds the task for the transaction and
 * reads its key and title; undefined when it no longer exists.
 */
export async function lockTaskIfExists(
  db: Executor,
  dialect: Dialect,
  taskId: number,
): Promise<{ key: string; title: string } | undefined> {
  await lockTask(db, dialect, taskId);
  return db.selectFrom('tasks').select(['key', 'title']).where('id', '=', taskId).executeTakeFirst();
}

export async function labelIdsOf(db: Executor, taskId: number): Promise<number[]> {
  const rows = await db.selectFrom('task_labels').select('label_id').where('task_id', '=', taskId).execute();
  return rows.map((r) => r.label_id);
}

/** Filters of a project's task list, already checked: `null` asks for tasks without a value. */
export interface TaskListFilter {
  statuses?: string[];
  statusCategories?: Array<'todo' | 'in_progress' | 'done'>;
  taskTypes?: string[];
  priorities?: string[];
  assignee?: number | null;
  milestone?: number | null;
  sprint?: number | null;
  parentKey?: string | null;
  labels?: string[];
  updatedSince?: string;
  dueBefore?: string;
  dueAfter?: string;
}

/** `due_sort`: tasks without a due date sort last on both databases. */
const dueSort = sql<string>`coalesce(t.due_date, '9999-12-31')`.as('due_sort');

/** Task rows for a list page, with `due_sort`. */
export function listedTasks(matching: TasksQuery) {
  return taskRowsOf(matching).select(dueSort);
}

/**
 * The ids and `due_sort` of a list's tasks, which every ordering of a list can sort by: on
 * SQLite, counting and sorting every match as a whole row cost more than reading the page's rows
 * by id afterwards (bench/RESULTS.md). Priorities are joined only for the ordering by priority
 * (`pr.position`); SQLite leaves out a left join on a key whose columns nothing uses.
 */
export function taskListIds(matching: TasksQuery) {
  return matching.leftJoin('priorities as pr', 'pr.id', 't.priority_id').select(['t.id', dueSort]);
}

/**
 * How many tasks match, counted up to `cap`: reads at most `cap` entries of an index whatever the
 * number of matches (LIST_COUNT_MARGIN in task-list.repository.ts).
 */
export function countTasksUpTo(db: Executor, matching: TasksQuery, cap: number): Promise<{ count: number | string }> {
  return db
    .selectFrom(matching.select('t.id').limit(cap).as('m'))
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
}

/**
 * A project's tasks matching `filter`, for one page (see paginate). The filters test the task's
 * own columns (names are resolved in subqueries on the project's statuses, types, priorities and
 * labels), so counting and sorting the matches joins nothing to them.
 */
export function tasksOfProject(db: Executor, projectId: number, filter: TaskListFilter): TasksQuery {
  let query = tasksTable(db).where('t.project_id', '=', projectId);
  const { statuses, statusCategories, taskTypes, priorities } = filter;
  if (statuses)
    query = query.where('t.status_id', 'in', (eb) =>
      eb.selectFrom('statuses').select('id').where('project_id', '=', projectId).where('name', 'in', statuses),
    );
  if (statusCategories)
    query = query.where('t.status_id', 'in', (eb) =>
      eb
        .selectFrom('statuses')
        .select('id')
        .where('project_id', '=', projectId)
        .where('category', 'in', statusCategories),
    );
  if (taskTypes)
    query = query.where('t.task_type_id', 'in', (eb) =>
      eb.selectFrom('task_types').select('id').where('project_id', '=', projectId).where('name', 'in', taskTypes),
    );
  if (priorities)
    query = query.where('t.priority_id', 'in', (eb) =>
      eb.selectFrom('priorities').select('id').where('project_id', '=', projectId).where('name', 'in', priorities),
    );
  for (const [field, column] of [
    ['assignee', 't.assignee_id'],
    ['milestone', 't.milestone_id'],
    ['sprint', 't.sprint_id'],
  ] as const) {
    const value = filter[field];
    if (value === undefined) continue;
    query = value === null ? query.where(column, 'is', null) : query.where(column, '=', value);
  }
  const { parentKey, labels } = filter;
  if (parentKey !== undefined)
    query =
      parentKey === null
        ? query.where('t.parent_id', 'is', null)
        : query.where('t.parent_id', 'in', (eb) => eb.selectFrom('tasks').select('id').where('key', '=', parentKey));
  if (labels) {
    // Labels belong to one project: naming it keeps the subquery to this project's labelled
    // tasks instead of every task of every project with a label of that name (bench/).
    query = query.where('t.id', 'in', (eb) =>
      eb
        .selectFrom('task_labels as tl')
        .innerJoin('labels as l', 'l.id', 'tl.label_id')
        .select('tl.task_id')
        .where('l.project_id', '=', projectId)
        .where('l.name', 'in', labels),
    );
  }
  if (filter.updatedSince) query = query.where('t.updated_at', '>=', filter.updatedSince);
  if (filter.dueBefore) query = query.where('t.due_date', '<=', filter.dueBefore);
  if (filter.dueAfter) query = query.where('t.due_date', '>=', filter.dueAfter);
  return query;
}

/** A task's direct subtasks, for one page (see paginate). */
export function subtasksOf(db: Executor, parentId: number): TasksQuery {
  return tasksTable(db).where('t.parent_id', '=', parentId);
}

/**
 * Task rows with their extras, for ids given as one value (an array on PostgreSQL, a JSON array
 * on SQLite), so the statement's text is the same for any number of ids and the service compiles
 * it once (see `prepared`).
 */
export function taskRowsWithExtrasByIdList(db: Executor, dialect: Dialect, idList: unknown) {
  const listed =
    dialect === 'postgres'
      ? sql<boolean>`t.id = any(${idList})`
      : sql<boolean>`t.id in (select value from json_each(${idList}))`;
  return selectTaskRowsWithExtras(db, dialect).where(listed);
}

/** Ids of the tasks of a project with these keys, in id order (the order bulk writes lock in). */
export function taskIdsByKeys(
  db: Executor,
  projectId: number,
  keys: string[],
): Promise<Array<{ id: number; key: string }>> {
  return db
    .selectFrom('tasks')
    .select(['id', 'key'])
    .where('project_id', '=', projectId)
    .where('key', 'in', keys)
    .orderBy('id')
    .execute();
}
