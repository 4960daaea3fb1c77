import type { AppContext } from '../../context.ts';
import { type BeforeCommit, transactionWith } from '../../db/before-commit.ts';
import { isUniqueViolation, type Executor, type Trx } from '../../db/database.ts';
import { ApiError, invalid, notFound } from '../../http/errors.ts';
import { type PageRequest } from '../../http/pagination.ts';
import { paginate } from '../../db/paginate.ts';
import type { Principal } from '../auth/principal.ts';
import { authorize, projectFor, visibleCustomFieldIds, visibleProjects, WORKSPACE } from '../../policy/index.ts';
import type { Caller } from '../tasks/task.service.ts';
import { lockTask } from '../tasks/task.repository.ts';
import { applyTaskUpdate } from '../tasks/task-writes.ts';
import {
  OPTION_TYPES,
  type CustomFieldCreateInput,
  type CustomFieldJson,
  type CustomFieldUpdateInput,
  type OptionInputItem,
} from './custom-fields.schemas.ts';
import { type FieldRow, lockFields, optionsByField, optionUsage, projectsByField, selectFields } from './custom-fields.repository.ts';

/**
 * Definitions are workspace objects: only workspace owners and admins write them, and only with
 * a token that is not restricted to projects (a restricted token never acts beyond its projects,
 * and a definition can apply to every project). A definition applying only to projects the
 * caller cannot see is invisible to it, like those projects (policy: visibleCustomFieldIds).
 */
function assertCanManage(principal: Principal): void {
  authorize(principal, 'workspace.configure', WORKSPACE);
}

/** The caller's visible definitions of its workspace. */
const visibleFields = (db: Executor, principal: Principal) =>
  selectFields(db, principal.organizationId).where('f.id', 'in', visibleCustomFieldIds(db, principal));

async function findVisibleField(db: Executor, principal: Principal, id: number): Promise<FieldRow | undefined> {
  return visibleFields(db, principal).where('f.id', '=', id).executeTakeFirst();
}

async function visibleProjectIdSet(db: Executor, principal: Principal): Promise<Set<number>> {
  const rows = await visibleProjects(db, principal).select('p.id').execute();
  return new Set(rows.map((r) => r.id));
}

/** `projects` lists only projects the caller can see, so a definition never reveals others. */
async function present(db: Executor, principal: Principal, rows: FieldRow[]): Promise<CustomFieldJson[]> {
  const ids = rows.map((r) => r.id);
  const [options, projects, visible] = await Promise.all([optionsByField(db, ids), projectsByField(db, ids), visibleProjectIdSet(db, principal)]);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    type: row.type,
    description: row.description,
    required: row.required === 1,
    projects: row.all_projects === 1 ? null : (projects.get(row.id) ?? []).filter((id) => visible.has(id)),
    options: (options.get(row.id) ?? []).map(({ id, value, position }) => ({ id, value, position })),
    created_at: row.created_at,
    updated_at: row.updated_at,
  }));
}

async function presentOne(db: Executor, principal: Principal, id: number): Promise<CustomFieldJson> {
  const row = await findVisibleField(db, principal, id);
  if (!row) throw notFound('Custom field');
  return (await present(db, principal, [row]))[0]!;
}

/** Project ids the caller cannot see answer 404, like any invisible project (spec 4.3 rule 2). */
async function assertProjectsVisible(db: Executor, principal: Principal, ids: number[]): Promise<void> {
  const visible = await visibleProjectIdSet(db, principal);
  const missing = ids.filter((id) => !visible.has(id));
  if (missing.length) throw new ApiError('NOT_FOUND', `Project${missing.length > 1 ? 's' : ''} not found: ${missing.join(', ')}.`, { projects: missing });
}

const optionValueOf = (item: string | { value: string }) => (typeof item === 'string' ? item : item.value);

function duplicateValues(values: string[]): string[] {
  return [...new Set(values.filter((value, i) => values.indexOf(value) !== i))];
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function nameTaken(name: string): ApiError {
  return new ApiError('ALREADY_EXISTS', `A custom field named "${name}" already exists in this workspace.`, { field: 'name' });
}

// ---------------------------------------------------------------- reads

export async function listFields(ctx: AppContext, principal: Principal, projectId: number | undefined, page: PageRequest) {
  let query = visibleFields(ctx.db, principal);
  if (projectId !== undefined) {
    await projectFor(ctx.db, principal, { id: projectId });
    query = query.where((eb) =>
      eb.or([
        eb('f.all_projects', '=', 1),
        eb.exists(eb.selectFrom('custom_field_projects as fp').select('fp.id').whereRef('fp.field_id', '=', 'f.id').where('fp.project_id', '=', projectId)),
      ]),
    );
  }
  const { rows, pagination } = await paginate(query, page, {
    idColumn: 'f.id',
    orderable: { name: 'f.name', created_at: 'f.created_at' },
    defaultOrdering: 'name',
  });
  return { data: await present(ctx.db, principal, rows), pagination };
}

export function getField(ctx: AppContext, principal: Principal, id: number): Promise<CustomFieldJson> {
  return presentOne(ctx.db, principal, id);
}

// ---------------------------------------------------------------- writes

export async function createField(ctx: AppContext, principal: Principal, input: CustomFieldCreateInput, beforeCommit?: BeforeCommit<CustomFieldJson>): Promise<CustomFieldJson> {
  assertCanManage(principal);
  const options = (input.options ?? []).map(optionValueOf);
  if (options.length && !OPTION_TYPES.includes(input.type)) throw invalid({ options: 'only select and multi_select fields have options' });
  const repeated = duplicateValues(options);
  if (repeated.length) throw invalid({ options: `option values must be unique; repeated: ${repeated.map((v) => `"${v}"`).join(', ')}` });
  if (input.projects) await assertProjectsVisible(ctx.db, principal, input.projects);

  const now = ctx.clock.nowIso();
  try {
    return await transactionWith(ctx.db, async (trx) => {
      const field = await trx
        .insertInto('custom_fields')
        .values({
          organization_id: principal.organizationId,
          name: input.name,
          type: input.type,
          description: input.description ?? '',
          required: input.required ? 1 : 0,
          all_projects: input.projects ? 0 : 1,
          created_by: principal.userId,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (input.projects?.length) {
        await trx.insertInto('custom_field_projects').values(input.projects.map((project_id) => ({ field_id: field.id, project_id }))).execute();
      }
      if (options.length) {
        await trx.insertInto('custom_field_options').values(options.map((value, position) => ({ field_id: field.id, value, position }))).execute();
      }
      return presentOne(trx, principal, field.id);
    }, beforeCommit);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
}

async function lockedField(trx: Trx, ctx: AppContext, principal: Principal, id: number): Promise<FieldRow> {
  await lockFields(trx, ctx.dialect, [id], 'update');
  const field = await findVisibleField(trx, principal, id);
  if (!field) throw notFound('Custom field');
  return field;
}

/**
 * New applicability of a field. Only projects the caller can see are changed: explicit
 * applicability to projects it cannot see is kept, as it could not have read or sent them.
 * Narrowing is refused while tasks of the projects left out hold values (nothing is dropped silently).
 */
async function applyProjects(trx: Trx, ctx: AppContext, principal: Principal, field: FieldRow, projects: number[] | null): Promise<void> {
  if (projects === null) {
    await trx.deleteFrom('custom_field_projects').where('field_id', '=', field.id).execute();
    await trx.updateTable('custom_fields').set({ all_projects: 1 }).where('id', '=', field.id).execute();
    return;
  }
  await assertProjectsVisible(trx, principal, projects);
  const visible = await visibleProjectIdSet(trx, principal);
  // Narrowing a field that applied to every project keeps it on every project the caller cannot see.
  const current =
    field.all_projects === 1
      ? (await trx.selectFrom('projects').select('id').where('organization_id', '=', principal.organizationId).execute()).map((p) => p.id)
      : ((await projectsByField(trx, [field.id])).get(field.id) ?? []);
  const next = [...new Set([...projects, ...current.filter((id) => !visible.has(id))])];

  const outside = await trx
    .selectFrom('task_custom_values as v')
    .innerJoin('tasks as t', 't.id', 'v.task_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('v.field_id', '=', field.id)
    .$if(next.length > 0, (q) => q.where('t.project_id', 'not in', next))
    .executeTakeFirstOrThrow();
  if (Number(outside.n) > 0) {
    throw new ApiError(
      'FIELD_IN_USE',
      `The field would stop applying to projects where ${count(Number(outside.n), 'task')} hold a value of it. Clear those values first.`,
      { task_count: Number(outside.n) },
    );
  }
  await trx.deleteFrom('custom_field_projects').where('field_id', '=', field.id).execute();
  if (next.length) await trx.insertInto('custom_field_projects').values(next.map((project_id) => ({ field_id: field.id, project_id }))).execute();
  await trx.updateTable('custom_fields').set({ all_projects: 0 }).where('id', '=', field.id).execute();
}

/**
 * Replaces the option list: items with an id keep (and may rename) that option, items without
 * are new, existing options left out are deleted unless tasks hold them. Stored task values are
 * option ids, so none of this rewrites them.
 */
async function applyOptions(trx: Trx, ctx: AppContext, field: FieldRow, items: OptionInputItem[]): Promise<void> {
  if (!OPTION_TYPES.includes(field.type)) throw invalid({ options: 'only select and multi_select fields have options' });
  const existing = new Map(((await optionsByField(trx, [field.id])).get(field.id) ?? []).map((o) => [o.id, o]));
  const errors: Record<string, string> = {};
  const seen = new Set<number>();
  const next = items.map((item, index) => {
    if (typeof item === 'string') return { value: item };
    if (item.id === undefined) {
      if (item.value === undefined) errors[`options[${index}]`] = 'needs an id (to keep an option) or a value (to add one)';
      return { value: item.value ?? '' };
    }
    const option = existing.get(item.id);
    if (!option) errors[`options[${index}].id`] = `${item.id} is not an option of this field`;
    else if (seen.has(item.id)) errors[`options[${index}].id`] = `option ${item.id} is listed twice`;
    seen.add(item.id);
    return { id: item.id, value: item.value ?? option?.value ?? '' };
  });
  if (Object.keys(errors).length) throw invalid(errors);
  const repeated = duplicateValues(next.map((o) => o.value));
  if (repeated.length) throw invalid({ options: `option values must be unique; repeated: ${repeated.map((v) => `"${v}"`).join(', ')}` });

  const removed = [...existing.keys()].filter((id) => !seen.has(id));
  const usage = await optionUsage(trx, ctx.dialect, field.id, removed);
  if (usage.taskCount > 0) {
    throw new ApiError(
      'OPTION_IN_USE',
      `Options that tasks hold cannot be deleted: ${usage.optionIds.join(', ')} (held by ${count(usage.taskCount, 'task')}). Change those tasks first.`,
      { task_count: usage.taskCount, options: usage.optionIds },
    );
  }
  if (removed.length) await trx.deleteFrom('custom_field_options').where('id', 'in', removed).execute();
  for (const [position, option] of next.entries()) {
    if (option.id === undefined) await trx.insertInto('custom_field_options').values({ field_id: field.id, value: option.value, position }).execute();
    else await trx.updateTable('custom_field_options').set({ value: option.value, position }).where('id', '=', option.id).execute();
  }
}

/** Changes any subset of a definition; omitted fields keep their values. The type never changes. */
export async function updateField(ctx: AppContext, principal: Principal, id: number, input: CustomFieldUpdateInput): Promise<CustomFieldJson> {
  assertCanManage(principal);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const field = await lockedField(trx, ctx, principal, id);
      if (input.type !== undefined && input.type !== field.type) throw invalid({ type: 'a field\'s type cannot change; create a new field instead' });
      if (input.projects !== undefined) await applyProjects(trx, ctx, principal, field, input.projects);
      if (input.options !== undefined) await applyOptions(trx, ctx, field, input.options);
      await trx
        .updateTable('custom_fields')
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.required !== undefined ? { required: input.required ? 1 : 0 } : {}),
          updated_at: ctx.clock.nowIso(),
        })
        .where('id', '=', id)
        .execute();
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name!);
    throw error;
  }
  return presentOne(ctx.db, principal, id);
}

/**
 * Deletes a definition and its values. Each task holding a value loses it through the task write
 * path, so the change is in its activity, the changes feed and a task.updated event like any
 * other edit. Tasks are handled in id order, the order bulk updates lock in.
 */
export async function deleteField(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  assertCanManage(caller.principal);
  await ctx.db.transaction().execute(async (trx) => {
    await lockedField(trx, ctx, caller.principal, id);
    const holdersOf = () => trx.selectFrom('task_custom_values').select('task_id').where('field_id', '=', id).orderBy('task_id').execute();
    // No new holder can appear while the field is locked; holders deleted while we wait for their
    // locks drop out of the second read (their values went with them).
    for (const { task_id } of await holdersOf()) await lockTask(trx, ctx.dialect, task_id);
    for (const { task_id } of await holdersOf()) await applyTaskUpdate(trx, ctx, caller.origin, task_id, { custom_fields: { [id]: null } });
    await trx.deleteFrom('custom_fields').where('id', '=', id).execute();
  });
}

/** The option with the field it belongs to, if that field is in the caller's workspace. */
async function findOption(db: Executor, principal: Principal, optionId: number) {
  return db
    .selectFrom('custom_field_options as o')
    .innerJoin('custom_fields as f', 'f.id', 'o.field_id')
    .select(['o.id', 'o.field_id as field', 'o.value', 'o.position'])
    .where('o.id', '=', optionId)
    .where('f.id', 'in', visibleCustomFieldIds(db, principal))
    .executeTakeFirst();
}

export async function renameOption(ctx: AppContext, principal: Principal, optionId: number, value: string) {
  assertCanManage(principal);
  const found = await findOption(ctx.db, principal, optionId);
  if (!found) throw notFound('Option');
  await ctx.db.transaction().execute(async (trx) => {
    await lockedField(trx, ctx, principal, found.field);
    const clash = await trx
      .selectFrom('custom_field_options')
      .select('id')
      .where('field_id', '=', found.field)
      .where('value', '=', value)
      .where('id', '!=', optionId)
      .executeTakeFirst();
    if (clash) throw new ApiError('ALREADY_EXISTS', `The field already has an option "${value}" (option ${clash.id}).`, { field: 'value' });
    await trx.updateTable('custom_field_options').set({ value }).where('id', '=', optionId).execute();
    await trx.updateTable('custom_fields').set({ updated_at: ctx.clock.nowIso() }).where('id', '=', found.field).execute();
  });
  const option = await findOption(ctx.db, principal, optionId);
  if (!option) throw notFound('Option');
  return option;
}

/** Sets the order options are offered in (spec 3 rule 4: never stored values). */
export async function reorderOptions(
  ctx: AppContext,
  principal: Principal,
  fieldId: number,
  optionIds: number[],
  beforeCommit?: BeforeCommit<CustomFieldJson>,
): Promise<CustomFieldJson> {
  assertCanManage(principal);
  return transactionWith(ctx.db, async (trx) => {
    await lockedField(trx, ctx, principal, fieldId);
    const current = ((await optionsByField(trx, [fieldId])).get(fieldId) ?? []).map((o) => o.id);
    const missing = current.filter((id) => !optionIds.includes(id));
    const unknown = optionIds.filter((id) => !current.includes(id));
    if (missing.length || unknown.length) {
      const problems = [missing.length ? `missing: ${missing.join(', ')}` : '', unknown.length ? `not options of this field: ${unknown.join(', ')}` : ''];
      throw invalid({ options: `must list every option of the field exactly once (${problems.filter(Boolean).join('; ')})` });
    }
    for (const [position, id] of optionIds.entries()) await trx.updateTable('custom_field_options').set({ position }).where('id', '=', id).execute();
    await trx.updateTable('custom_fields').set({ updated_at: ctx.clock.nowIso() }).where('id', '=', fieldId).execute();
    return presentOne(trx, principal, fieldId);
  }, beforeCommit);
}
