import { type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { TasksQuery } from '../tasks/task.repository.ts';
import type { Ordering } from './ast.ts';
import type { CustomFieldForQuery, QueryLookups } from './bind.ts';
import type { Bound, BoundLeaf } from './bound.ts';
import { FIELDS, type FieldName, type TextScope } from './fields.ts';

/**
 * A bound query (bound.ts) as SQL over `tasks as t`, one function per dialect where they
 * differ (full text), and the lookups that bind names to records. Every condition is true or
 * false, never NULL, so NOT means what it means in the predicate (predicate.ts).
 */
type TaskTables = Database & { t: Database['tasks'] };
export type TaskExpressionBuilder = ExpressionBuilder<TaskTables, 't'>;

const TRUE = sql<SqlBool>`1 = 1`;
const FALSE = sql<SqlBool>`1 = 0`;

/** The condition of a bound query on `t`. */
export function taskCondition(eb: TaskExpressionBuilder, bound: Bound, dialect: Dialect): Expression<SqlBool> {
  switch (bound.kind) {
    case 'and':
      return eb.and(bound.items.map((item) => taskCondition(eb, item, dialect)));
    case 'or':
      return eb.or(bound.items.map((item) => taskCondition(eb, item, dialect)));
    case 'not':
      return eb.not(taskCondition(eb, bound.expr, dialect));
    default:
      return leafCondition(eb, bound, dialect);
  }
}

const LISTED_COLUMNS = { status: 't.status_id', type: 't.task_type_id', priority: 't.priority_id' } as const;
const NULLABLE_COLUMNS = {
  assignee: 't.assignee_id',
  creator: 't.created_by',
  milestone: 't.milestone_id',
  sprint: 't.sprint_id',
  parent: 't.parent_id',
} as const;

/** `column IN ids`, false for no ids, and false rather than NULL when the column is NULL. */
function inIds(
  eb: TaskExpressionBuilder,
  column:
    | (typeof NULLABLE_COLUMNS)[keyof typeof NULLABLE_COLUMNS]
    | 't.project_id'
    | 't.status_id'
    | 't.task_type_id'
    | 't.priority_id',
  ids: number[],
  nullable: boolean,
): Expression<SqlBool> {
  if (ids.length === 0) return FALSE;
  const test = eb(column, 'in', ids);
  return nullable ? eb.and([eb(column, 'is not', null), test]) : test;
}

function leafCondition(eb: TaskExpressionBuilder, bound: BoundLeaf, dialect: Dialect): Expression<SqlBool> {
  switch (bound.kind) {
    case 'const':
      return bound.value ? TRUE : FALSE;
    case 'project':
      return inIds(eb, 't.project_id', bound.ids, false);
    case 'key':
      return bound.keys.length ? eb('t.key', 'in', bound.keys) : FALSE;
    case 'listed':
      return inIds(eb, LISTED_COLUMNS[bound.field], bound.ids, false);
    case 'category':
      return eb('t.status_id', 'in', eb.selectFrom('statuses').select('id').where('category', 'in', bound.categories));
    case 'person':
      return inIds(eb, NULLABLE_COLUMNS[bound.field], bound.ids, true);
    case 'planning':
      return inIds(eb, NULLABLE_COLUMNS[bound.field], bound.ids, true);
    case 'parent':
      return inIds(eb, 't.parent_id', bound.ids, true);
    case 'follower':
      return bound.ids.length
        ? eb('t.id', 'in', eb.selectFrom('task_followers').select('task_id').where('user_id', 'in', bound.ids))
        : FALSE;
    case 'label':
      return bound.ids.length
        ? eb('t.id', 'in', eb.selectFrom('task_labels').select('task_id').where('label_id', 'in', bound.ids))
        : FALSE;
    case 'empty':
      return emptyCondition(eb, bound.field);
    case 'date':
      return eb.and([eb(`t.${bound.column}`, 'is not', null), eb(`t.${bound.column}`, bound.comparison, bound.date)]);
    case 'instant':
      return eb(`t.${bound.column}`, bound.comparison, bound.iso);
    case 'number':
      return eb.and([eb(`t.${bound.column}`, 'is not', null), eb(`t.${bound.column}`, bound.comparison, bound.value)]);
    case 'match':
      return dialect === 'postgres'
        ? postgresMatch(bound.scope, bound.words)
        : sqliteMatch(eb, bound.scope, bound.words);
    case 'blocked':
      return blockedCondition(eb, bound.projectIds);
    case 'custom-empty':
      return eb.not(
        eb.exists(
          eb
            .selectFrom('task_custom_values as cv')
            .select('cv.id')
            .whereRef('cv.task_id', '=', 't.id')
            .where('cv.field_id', '=', bound.fieldId),
        ),
      );
    case 'custom-equals':
      return bound.json.length
        ? eb('t.id', 'in', customValues(eb, bound.fieldId).where('cv.value', 'in', bound.json))
        : FALSE;
    case 'custom-contains':
      return bound.optionIds.length
        ? eb('t.id', 'in', customContains(eb, dialect, bound.fieldId, bound.optionIds))
        : FALSE;
    case 'custom-compare': {
      const stored =
        bound.type === 'number'
          ? dialect === 'postgres'
            ? sql`cast(cv.value as double precision)`
            : sql`cast(cv.value as real)`
          : dialect === 'postgres'
            ? sql`(cv.value::jsonb #>> '{}')`
            : sql`json_extract(cv.value, '$')`;
      return eb(
        't.id',
        'in',
        customValues(eb, bound.fieldId).where(sql<SqlBool>`${stored} ${sql.raw(bound.comparison)} ${bound.value}`),
      );
    }
  }
}

function customValues(eb: TaskExpressionBuilder, fieldId: number) {
  return eb.selectFrom('task_custom_values as cv').select('cv.task_id').where('cv.field_id', '=', fieldId);
}

function customContains(eb: TaskExpressionBuilder, dialect: Dialect, fieldId: number, optionIds: number[]) {
  const values = customValues(eb, fieldId);
  return dialect === 'postgres'
    ? values.where(
        sql<SqlBool>`exists (select 1 from jsonb_array_elements_text(cv.value::jsonb) as o(id) where o.id in (${sql.join(optionIds.map(String))}))`,
      )
    : values.where(
        sql<SqlBool>`exists (select 1 from json_each(cv.value) as o where o.value in (${sql.join(optionIds)}))`,
      );
}

function emptyCondition(eb: TaskExpressionBuilder, field: FieldName): Expression<SqlBool> {
  const def = FIELDS[field];
  if (def.kind === 'date' || def.kind === 'number') return eb(`t.${def.column}`, 'is', null);
  switch (field) {
    case 'assignee':
    case 'creator':
    case 'milestone':
    case 'sprint':
    case 'parent':
      return eb(NULLABLE_COLUMNS[field], 'is', null);
    case 'label':
      return eb.not(eb.exists(eb.selectFrom('task_labels as el').select('el.id').whereRef('el.task_id', '=', 't.id')));
    case 'follower':
      return eb.not(
        eb.exists(eb.selectFrom('task_followers as ef').select('ef.id').whereRef('ef.task_id', '=', 't.id')),
      );
    case 'description':
      return eb('t.description', '=', '');
    default:
      throw new Error(`${field} is never empty`);
  }
}

/** An open blocker: a `blocks` link from a task not done, in a project the caller sees. */
function blockedCondition(eb: TaskExpressionBuilder, projectIds: number[]): Expression<SqlBool> {
  if (projectIds.length === 0) return FALSE;
  return eb.exists(
    eb
      .selectFrom('task_links as bl')
      .innerJoin('tasks as bt', 'bt.id', 'bl.from_task_id')
      .innerJoin('statuses as bs', 'bs.id', 'bt.status_id')
      .select('bl.id')
      .whereRef('bl.to_task_id', '=', 't.id')
      .where('bl.type', '=', 'blocks')
      .where('bs.category', '<>', 'done')
      .where('bt.project_id', 'in', projectIds),
  );
}

/** SQLite: the FTS5 index (migration 0017), its columns named so only the scope's text is searched. */
function sqliteMatch(eb: TaskExpressionBuilder, scope: TextScope, words: string[]): Expression<SqlBool> {
  const columns = scope === 'all' ? '{title description}' : scope;
  const expression = `${columns} : (${words.map((word) => `"${word}"`).join(' ')})`;
  return eb('t.id', 'in', sql<number>`(select rowid from tasks_fts where tasks_fts match ${expression})`);
}

/** PostgreSQL: the title's own vector, or the whole one (description words weigh B there). */
function postgresMatch(scope: TextScope, words: string[]): Expression<SqlBool> {
  const weight = scope === 'description' ? ':B' : '';
  const query = words.map((word) => `${word}${weight}`).join(' & ');
  const vector = scope === 'title' ? sql.ref('t.title_vector') : sql.ref('t.search_vector');
  return sql<SqlBool>`${vector} @@ to_tsquery('english', ${query})`;
}

// -------------------------------------------------------------------------------------------
// ORDER BY

const CATEGORY_RANK = sql<number>`(select case s.category when 'todo' then 0 when 'in_progress' then 1 else 2 end from statuses s where s.id = t.status_id)`;

/** A sort key on `t`; `ofProject` when every task of one project has the same value (its key). */
interface OrderKey {
  expression: RawBuilder<unknown>;
  direction: 'asc' | 'desc';
  ofProject: boolean;
}

/**
 * The sort keys of an ordering as expressions on `t`, each followed by the ties' keys: project
 * key (`projectKey`), then task number. Names sort by code point on both databases; a due date
 * sorts tasks without one last in either direction.
 */
function orderKeys(orderBy: Ordering[], dialect: Dialect, projectKey: RawBuilder<unknown>): OrderKey[] {
  const text = (ref: string) => (dialect === 'postgres' ? sql`${sql.ref(ref)} collate "C"` : sql.ref(ref));
  const keys: OrderKey[] = [];
  const push = (expression: RawBuilder<unknown>, direction: 'asc' | 'desc', ofProject = false) =>
    keys.push({ expression, direction, ofProject });
  for (const { field, direction } of orderBy) {
    const def = FIELDS[field];
    if (def.kind === 'date' || def.kind === 'number') {
      push(sql`case when ${sql.ref(`t.${def.column}`)} is null then 1 else 0 end`, 'asc');
      push(sql.ref(`t.${def.column}`), direction);
    } else if (def.kind === 'instant') push(sql.ref(`t.${def.column}`), direction);
    else if (field === 'title') push(text('t.title'), direction);
    else if (field === 'status') push(sql`(select s.position from statuses s where s.id = t.status_id)`, direction);
    else if (field === 'priority')
      push(sql`(select pr.position from priorities pr where pr.id = t.priority_id)`, direction);
    else if (field === 'type')
      push(sql`(select ${text('tt.name')} from task_types tt where tt.id = t.task_type_id)`, direction);
    else if (field === 'status_category') push(CATEGORY_RANK, direction);
    else if (field === 'project') push(projectKey, direction, true);
    else if (field === 'key') {
      push(projectKey, direction, true);
      push(sql.ref('t.number'), direction);
    }
  }
  push(projectKey, 'asc', true);
  push(sql.ref('t.number'), 'asc');
  return keys;
}

/**
 * Above this many projects a page is one statement that sorts every match: a statement of one
 * branch per project repeats the query's parameters in each (the project list among them).
 */
export const MERGED_PROJECTS_MAX = 50;

/** Whether every match of a bound query holds some words (a `~` not under OR or NOT). */
export function requiresWords(bound: Bound | null): boolean {
  if (bound === null) return false;
  if (bound.kind === 'match') return true;
  return bound.kind === 'and' && bound.items.some(requiresWords);
}

/**
 * The ids of one offset page of matching tasks in a query's ordering, cut in SQL.
 * `matchingIn(ids)` is the matching tasks of those projects. Each project is a branch of one
 * statement: there its key is the same for every task, so the default ordering (created DESC,
 * then number) is the order of tasks_project_created_idx (migration 0050), or with
 * `assignee = me()` of tasks_assignee_created_idx, and the branch stops after offset + limit
 * rows instead of sorting every match; the branches are merged by every key, a project's key
 * given as its rank among `projects` (code point order, as keys sort on both databases). An
 * ordering by another field still sorts each project's matches.
 *
 * One statement sorting every match instead, the project's key read per match: over more than
 * MERGED_PROJECTS_MAX projects, and when the query requires words (`byWords`), whose matches
 * the text index finds. SQLite reads them from the FTS index once per branch (at 100,000
 * tasks, 105 ms against 23 ms for `status_category = todo AND text ~ login`); PostgreSQL, with
 * the words a parameter of a prepared statement's generic plan, walked each project in order
 * testing every task's words (89 ms of database CPU a page for `text ~ "login timeout"`).
 */
export function orderedPageIds(
  db: Executor,
  matchingIn: (projectIds: number[]) => TasksQuery,
  projects: Array<{ id: number; key: string }>,
  orderBy: Ordering[],
  dialect: Dialect,
  page: { limit: number; offset: number; byWords: boolean },
) {
  const text = dialect === 'postgres' ? sql`p.key collate "C"` : sql`p.key`;
  if (page.byWords || projects.length === 0 || projects.length > MERGED_PROJECTS_MAX) {
    const keys = orderKeys(orderBy, dialect, sql`(select ${text} from projects p where p.id = t.project_id)`);
    let query = matchingIn(projects.map((p) => p.id)).select('t.id as id');
    for (const { expression, direction } of keys) query = query.orderBy(expression, direction);
    return query.limit(page.limit).offset(page.offset);
  }
  const ranked = [...projects].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const branches = ranked.map((project, rank) => {
    const keys = orderKeys(orderBy, dialect, sql.lit(rank));
    let branch = matchingIn([project.id]).select((eb) => [
      eb.ref('t.id').as('id'),
      ...keys.map(({ expression }, i) => expression.as(`o${i}`)),
    ]);
    for (const { expression, direction, ofProject } of keys)
      if (!ofProject) branch = branch.orderBy(expression, direction);
    return db.selectFrom(branch.limit(page.offset + page.limit).as(`b${rank}`)).selectAll();
  });
  const merged = branches.slice(1).reduce((all, branch) => all.unionAll(branch), branches[0]!);
  let query = db.selectFrom(merged.as('m')).select('m.id');
  orderKeys(orderBy, dialect, sql.lit(0)).forEach(({ direction }, i) => {
    query = query.orderBy(sql.ref(`m.o${i}`), direction);
  });
  return query.limit(page.limit).offset(page.offset);
}

// -------------------------------------------------------------------------------------------
// Lookups

const OPTION_TABLES = { status: 'statuses', type: 'task_types', priority: 'priorities' } as const;

/** The lookups of bind.ts for an account of `organizationId`; custom fields are those that apply to one of `projectIds` or to all. */
export function queryLookups(db: Executor, organizationId: number, projectIds: number[]): QueryLookups {
  const someProject = projectIds.length ? projectIds : [-1];
  return {
    options: (kind, ids) =>
      db
        .selectFrom(OPTION_TABLES[kind])
        .select(['id', 'project_id', 'name', 'position'])
        .where('project_id', 'in', ids.length ? ids : [-1])
        .execute(),
    labels: (ids) =>
      db
        .selectFrom('labels')
        .select(['id', 'project_id', 'name'])
        .where('project_id', 'in', ids.length ? ids : [-1])
        .execute(),
    people: (texts, ids) =>
      db
        .selectFrom('users')
        .select(['id', 'handle', 'email'])
        .where('organization_id', '=', organizationId)
        .where((eb) =>
          eb.or([
            eb('handle', 'in', texts),
            eb(eb.fn('lower', ['email']), 'in', texts),
            ...(ids.length ? [eb('id', 'in', ids)] : []),
          ]),
        )
        .execute(),
    milestones: (ids) =>
      db
        .selectFrom('milestones')
        .select(['id', 'project_id', 'name'])
        .where('project_id', 'in', ids.length ? ids : [-1])
        .execute(),
    sprints: (ids) =>
      db
        .selectFrom('sprints')
        .select(['id', 'project_id', 'name', 'state'])
        .where('project_id', 'in', ids.length ? ids : [-1])
        .execute(),
    tasks: (ids, keys) =>
      db
        .selectFrom('tasks')
        .select(['id', 'key'])
        .where('project_id', 'in', ids.length ? ids : [-1])
        .where('key', 'in', keys)
        .execute(),
    customFields: () => customFieldsFor(db, organizationId, someProject),
  };
}

/** Custom fields an account seeing `projectIds` sees (the rule of policy's visibleCustomFieldIds), with their options. */
async function customFieldsFor(
  db: Executor,
  organizationId: number,
  projectIds: number[],
): Promise<CustomFieldForQuery[]> {
  const fields = await db
    .selectFrom('custom_fields as f')
    .select(['f.id', 'f.name', 'f.type'])
    .where('f.organization_id', '=', organizationId)
    .where((eb) => {
      const applies = eb
        .selectFrom('custom_field_projects as fp')
        .select('fp.project_id')
        .whereRef('fp.field_id', '=', 'f.id');
      return eb.or([
        eb('f.all_projects', '=', 1),
        eb.not(eb.exists(applies)),
        eb.exists(applies.where('fp.project_id', 'in', projectIds)),
      ]);
    })
    .execute();
  if (fields.length === 0) return [];
  const options = await db
    .selectFrom('custom_field_options')
    .select(['id', 'field_id', 'value'])
    .where(
      'field_id',
      'in',
      fields.map((f) => f.id),
    )
    .execute();
  return fields.map((f) => ({ ...f, options: options.filter((o) => o.field_id === f.id) }));
}

/** Followers and open blockers (in `projectIds`) of tasks, for the predicate's facts. */
export async function taskFactsExtras(
  db: Executor,
  taskIds: number[],
  projectIds: number[],
): Promise<{ followers: Map<number, number[]>; blocked: Set<number> }> {
  if (taskIds.length === 0) return { followers: new Map(), blocked: new Set() };
  const [followers, blocked] = await Promise.all([
    db.selectFrom('task_followers').select(['task_id', 'user_id']).where('task_id', 'in', taskIds).execute(),
    db
      .selectFrom('task_links as bl')
      .innerJoin('tasks as bt', 'bt.id', 'bl.from_task_id')
      .innerJoin('statuses as bs', 'bs.id', 'bt.status_id')
      .select('bl.to_task_id')
      .where('bl.to_task_id', 'in', taskIds)
      .where('bl.type', '=', 'blocks')
      .where('bs.category', '<>', 'done')
      .where('bt.project_id', 'in', projectIds.length ? projectIds : [-1])
      .execute(),
  ]);
  const byTask = new Map<number, number[]>();
  for (const row of followers) byTask.set(row.task_id, [...(byTask.get(row.task_id) ?? []), row.user_id]);
  return { followers: byTask, blocked: new Set(blocked.map((row) => row.to_task_id)) };
}

/** Tasks of `projectIds` matching a bound query (every task of them for `null`). */
export function tasksMatching(db: Executor, projectIds: number[], bound: Bound | null, dialect: Dialect): TasksQuery {
  return whereQuery(
    db.selectFrom('tasks as t').where('t.project_id', 'in', projectIds.length ? projectIds : [-1]),
    bound,
    dialect,
  );
}

/** `tasks` narrowed to those matching a bound query. */
export function whereQuery(tasks: TasksQuery, bound: Bound | null, dialect: Dialect): TasksQuery {
  return bound ? tasks.where((eb) => taskCondition(eb, bound, dialect)) : tasks;
}
