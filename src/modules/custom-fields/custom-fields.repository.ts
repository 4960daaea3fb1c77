import { type Insertable, sql, type Updateable } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import { paginate } from '../../db/paginate.ts';
import type { CustomFieldsTable } from '../../db/schema.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { visibleCustomFieldIds } from '../../policy/visibility.repository.ts';

export function selectFields(db: Executor, organizationId: number) {
  return db
    .selectFrom('custom_fields as f')
    .select([
      'f.id',
      'f.name',
      'f.type',
      'f.description',
      'f.required',
      'f.all_projects',
      'f.created_at',
      'f.updated_at',
    ])
    .where('f.organization_id', '=', organizationId);
}

export type FieldRow = Awaited<ReturnType<ReturnType<typeof selectFields>['executeTakeFirstOrThrow']>>;

export interface OptionRow {
  id: number;
  field_id: number;
  value: string;
  position: number;
}

/** Options of several fields in one query, each list in offering order. */
export async function optionsByField(db: Executor, fieldIds: number[]): Promise<Map<number, OptionRow[]>> {
  const result = new Map<number, OptionRow[]>();
  if (fieldIds.length === 0) return result;
  const rows = await db
    .selectFrom('custom_field_options')
    .select(['id', 'field_id', 'value', 'position'])
    .where('field_id', 'in', fieldIds)
    .orderBy('position')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = result.get(row.field_id);
    if (list) list.push(row);
    else result.set(row.field_id, [row]);
  }
  return result;
}

/** Explicit project ids of several fields in one query (fields with all_projects have none). */
export async function projectsByField(db: Executor, fieldIds: number[]): Promise<Map<number, number[]>> {
  const result = new Map<number, number[]>();
  if (fieldIds.length === 0) return result;
  const rows = await db
    .selectFrom('custom_field_projects')
    .select(['field_id', 'project_id'])
    .where('field_id', 'in', fieldIds)
    .orderBy('project_id')
    .execute();
  for (const row of rows) {
    const list = result.get(row.field_id);
    if (list) list.push(row.project_id);
    else result.set(row.field_id, [row.project_id]);
  }
  return result;
}

/**
 * PostgreSQL row locks on definitions. Task writes take `share` (FOR KEY SHARE) on the fields
 * they set, before any task lock; definition writes take `update` (FOR UPDATE), then task locks.
 * So a definition change never interleaves with a task write using that field (an option cannot
 * be deleted between a task's validation and its insert), and the lock order never inverts.
 */
export async function lockFields(
  db: Executor,
  dialect: Dialect,
  ids: number[],
  mode: 'share' | 'update',
): Promise<void> {
  if (dialect !== 'postgres' || ids.length === 0) return;
  const query = db.selectFrom('custom_fields').select('id').where('id', 'in', ids).orderBy('id');
  await (mode === 'share' ? query.forKeyShare() : query.forUpdate()).execute();
}

/**
 * How many tasks hold any of the options of one field, and which of the options are held.
 * Values are JSON (an option id, or a list of them), so the match is per dialect: SQLite's
 * json_each yields the scalar itself or each list element; PostgreSQL's jsonb containment
 * matches a scalar, or an element of a list.
 */
export async function optionUsage(
  db: Executor,
  dialect: Dialect,
  fieldId: number,
  optionIds: number[],
): Promise<{ taskCount: number; optionIds: number[] }> {
  if (optionIds.length === 0) return { taskCount: 0, optionIds: [] };
  const used =
    dialect === 'postgres'
      ? sql`SELECT o AS option_id, v.task_id
            FROM task_custom_values v CROSS JOIN unnest(CAST(${optionIds} AS integer[])) AS o
            WHERE v.field_id = ${fieldId} AND CAST(v.value AS jsonb) @> to_jsonb(o)`
      : sql`SELECT j.value AS option_id, v.task_id
            FROM task_custom_values v, json_each(v.value) j
            WHERE v.field_id = ${fieldId} AND j.value IN (${sql.join(optionIds)})`;
  const held = await sql<{ option_id: number }>`SELECT DISTINCT option_id FROM (${used}) u ORDER BY option_id`.execute(
    db,
  );
  if (held.rows.length === 0) return { taskCount: 0, optionIds: [] };
  const total = await sql<{ n: number }>`SELECT COUNT(DISTINCT task_id) AS n FROM (${used}) u`.execute(db);
  return { taskCount: Number(total.rows[0]!.n), optionIds: held.rows.map((r) => Number(r.option_id)) };
}

/** Custom field values of a page of tasks in one query: task id -> {"<field id>": value}. */
export async function customValuesByTask(
  db: Executor,
  taskIds: number[],
): Promise<Map<number, Record<string, unknown>>> {
  const result = new Map<number, Record<string, unknown>>();
  if (taskIds.length === 0) return result;
  const rows = await db
    .selectFrom('task_custom_values')
    .select(['task_id', 'field_id', 'value'])
    .where('task_id', 'in', taskIds)
    .orderBy('field_id')
    .execute();
  for (const row of rows) {
    let values = result.get(row.task_id);
    if (!values) result.set(row.task_id, (values = {}));
    values[String(row.field_id)] = JSON.parse(row.value) as unknown;
  }
  return result;
}

/** The caller's visible definitions of its workspace (see visibleCustomFieldIds). */
export function visibleFields(db: Executor, principal: Principal) {
  return selectFields(db, principal.organizationId).where('f.id', 'in', visibleCustomFieldIds(db, principal));
}

/** Which of these definitions the caller can see (see visibleCustomFieldIds). */
export async function visibleFieldIdsAmong(db: Executor, principal: Principal, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await visibleCustomFieldIds(db, principal).where('vf.id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** One page of the caller's visible definitions, only those applying to `projectId` when given. */
export function fieldsPage(db: Executor, principal: Principal, projectId: number | undefined, page: PageRequest) {
  return paginate(visibleFieldsFor(db, principal, projectId), page, {
    idColumn: 'f.id',
    orderable: { name: 'f.name', created_at: 'f.created_at' },
    defaultOrdering: 'name',
  });
}

function visibleFieldsFor(db: Executor, principal: Principal, projectId: number | undefined) {
  const query = visibleFields(db, principal);
  if (projectId === undefined) return query;
  return query.where((eb) =>
    eb.or([
      eb('f.all_projects', '=', 1),
      eb.exists(
        eb
          .selectFrom('custom_field_projects as fp')
          .select('fp.id')
          .whereRef('fp.field_id', '=', 'f.id')
          .where('fp.project_id', '=', projectId),
      ),
    ]),
  );
}

export function findVisibleField(db: Executor, principal: Principal, id: number): Promise<FieldRow | undefined> {
  return visibleFields(db, principal).where('f.id', '=', id).executeTakeFirst();
}

/** Inserts a definition; a name the workspace already uses is a unique violation. */
export async function insertField(db: Executor, values: Omit<Insertable<CustomFieldsTable>, 'id'>): Promise<number> {
  const { id } = await db.insertInto('custom_fields').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** Changes columns of a definition; a name the workspace already uses is a unique violation. */
export async function updateFieldColumns(db: Executor, id: number, set: Updateable<CustomFieldsTable>): Promise<void> {
  await db.updateTable('custom_fields').set(set).where('id', '=', id).execute();
}

export async function deleteField(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('custom_fields').where('id', '=', id).execute();
}

/** Makes the field apply to exactly these projects (none: the field's explicit list is emptied). */
export async function replaceFieldProjects(db: Executor, fieldId: number, projectIds: number[]): Promise<void> {
  await db.deleteFrom('custom_field_projects').where('field_id', '=', fieldId).execute();
  if (projectIds.length)
    await db
      .insertInto('custom_field_projects')
      .values(projectIds.map((project_id) => ({ field_id: fieldId, project_id })))
      .execute();
}

export async function projectIdsOfOrganization(db: Executor, organizationId: number): Promise<number[]> {
  const rows = await db.selectFrom('projects').select('id').where('organization_id', '=', organizationId).execute();
  return rows.map((p) => p.id);
}

/** How many tasks outside these projects hold a value of the field. */
export async function holdersOutside(db: Executor, fieldId: number, projectIds: number[]): Promise<number> {
  const row = await db
    .selectFrom('task_custom_values as v')
    .innerJoin('tasks as t', 't.id', 'v.task_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('v.field_id', '=', fieldId)
    .$if(projectIds.length > 0, (q) => q.where('t.project_id', 'not in', projectIds))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Ids of the tasks holding a value of the field, in id order. */
export async function holdersOf(db: Executor, fieldId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('task_custom_values')
    .select('task_id')
    .where('field_id', '=', fieldId)
    .orderBy('task_id')
    .execute();
  return rows.map((r) => r.task_id);
}

/** Adds options at these positions. */
export async function insertOptions(
  db: Executor,
  fieldId: number,
  options: Array<{ value: string; position: number }>,
): Promise<void> {
  if (options.length)
    await db
      .insertInto('custom_field_options')
      .values(options.map((o) => ({ field_id: fieldId, ...o })))
      .execute();
}

export async function updateOption(
  db: Executor,
  id: number,
  set: { value?: string; position?: number },
): Promise<void> {
  await db.updateTable('custom_field_options').set(set).where('id', '=', id).execute();
}

export async function deleteOptions(db: Executor, ids: number[]): Promise<void> {
  if (ids.length) await db.deleteFrom('custom_field_options').where('id', 'in', ids).execute();
}

/** The option with the field it belongs to, if the caller can see that field. */
export function findVisibleOption(db: Executor, principal: Principal, optionId: number) {
  return db
    .selectFrom('custom_field_options as o')
    .innerJoin('custom_fields as f', 'f.id', 'o.field_id')
    .select(['o.id', 'o.field_id as field', 'o.value', 'o.position'])
    .where('o.id', '=', optionId)
    .where('f.id', 'in', visibleCustomFieldIds(db, principal))
    .executeTakeFirst();
}

/** Another option of the field with this value, if any. */
export function otherOptionWithValue(db: Executor, fieldId: number, value: string, optionId: number) {
  return db
    .selectFrom('custom_field_options')
    .select('id')
    .where('field_id', '=', fieldId)
    .where('value', '=', value)
    .where('id', '!=', optionId)
    .executeTakeFirst();
}

/**
 * The fields a task write needs: those named, plus (with `includeRequired`) the required ones,
 * each with whether it applies to the project (0/1 on SQLite, a boolean on PostgreSQL).
 */
export function fieldsForTaskWrite(
  db: Executor,
  project: { id: number; organization_id: number },
  ids: number[],
  includeRequired: boolean,
) {
  return db
    .selectFrom('custom_fields as f')
    .select((eb) => [
      'f.id',
      'f.name',
      'f.type',
      'f.required',
      eb
        .or([
          eb('f.all_projects', '=', 1),
          eb.exists(
            eb
              .selectFrom('custom_field_projects as fp')
              .select('fp.id')
              .whereRef('fp.field_id', '=', 'f.id')
              .where('fp.project_id', '=', project.id),
          ),
        ])
        .as('applies'),
    ])
    .where('f.organization_id', '=', project.organization_id)
    .where((eb) => {
      const named = ids.length ? [eb('f.id', 'in', ids)] : [];
      return eb.or(includeRequired ? [...named, eb('f.required', '=', 1)] : named);
    })
    .execute();
}
