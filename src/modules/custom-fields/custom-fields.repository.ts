import { sql } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';

export function selectFields(db: Executor, organizationId: number) {
  return db
    .selectFrom('custom_fields as f')
    .select(['f.id', 'f.name', 'f.type', 'f.description', 'f.required', 'f.all_projects', 'f.created_at', 'f.updated_at'])
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
  const rows = await db.selectFrom('custom_field_projects').select(['field_id', 'project_id']).where('field_id', 'in', fieldIds).orderBy('project_id').execute();
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
export async function lockFields(db: Executor, dialect: Dialect, ids: number[], mode: 'share' | 'update'): Promise<void> {
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
export async function optionUsage(db: Executor, dialect: Dialect, fieldId: number, optionIds: number[]): Promise<{ taskCount: number; optionIds: number[] }> {
  if (optionIds.length === 0) return { taskCount: 0, optionIds: [] };
  const used =
    dialect === 'postgres'
      ? sql`SELECT o AS option_id, v.task_id
            FROM task_custom_values v CROSS JOIN unnest(CAST(${optionIds} AS integer[])) AS o
            WHERE v.field_id = ${fieldId} AND CAST(v.value AS jsonb) @> to_jsonb(o)`
      : sql`SELECT j.value AS option_id, v.task_id
            FROM task_custom_values v, json_each(v.value) j
            WHERE v.field_id = ${fieldId} AND j.value IN (${sql.join(optionIds)})`;
  const held = await sql<{ option_id: number }>`SELECT DISTINCT option_id FROM (${used}) u ORDER BY option_id`.execute(db);
  if (held.rows.length === 0) return { taskCount: 0, optionIds: [] };
  const total = await sql<{ n: number }>`SELECT COUNT(DISTINCT task_id) AS n FROM (${used}) u`.execute(db);
  return { taskCount: Number(total.rows[0]!.n), optionIds: held.rows.map((r) => Number(r.option_id)) };
}

/** Custom field values of a page of tasks in one query: task id -> {"<field id>": value}. */
export async function customValuesByTask(db: Executor, taskIds: number[]): Promise<Map<number, Record<string, unknown>>> {
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
