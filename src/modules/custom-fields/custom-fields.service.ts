import type { AppContext } from '../../context.ts';
import { isUniqueViolation, type Executor } from '../../db/database.ts';
import { type Tx, withSavepoint } from '../../db/unit-of-work.ts';
import { ApiError, foundOr404, invalid } from '../../http/errors.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { authorize, projectFor, WORKSPACE } from '../../policy/index.ts';
import { loadVisibleProjects } from '../../policy/visibility.repository.ts';
import type { Caller } from '../../identity/caller.ts';
import { lockTask } from '../tasks/task.repository.ts';
import { lockTaskForWrite, writeTaskUpdate } from '../tasks/task-writes.ts';
import {
  OPTION_TYPES,
  type CustomFieldCreateInput,
  type CustomFieldJson,
  type CustomFieldUpdateInput,
  type OptionInputItem,
} from './custom-fields.schemas.ts';
import * as repo from './custom-fields.repository.ts';
import { changedFields, hasChanges, recordAudit } from '../audit/record-audit.ts';
import type { FieldRow } from './custom-fields.repository.ts';

/**
 * Definitions are workspace objects: only workspace owners and admins write them, and only with
 * a token that is not restricted to projects (a restricted token never acts beyond its projects,
 * and a definition can apply to every project). A definition applying only to projects the
 * caller cannot see is invisible to it, like those projects (policy: visibleCustomFieldIds).
 */
function assertCanManage(principal: Principal): void {
  authorize(principal, 'workspace.configure', WORKSPACE);
}

async function visibleProjectIdSet(db: Executor, principal: Principal): Promise<Set<number>> {
  return new Set((await loadVisibleProjects(db, principal)).byId.keys());
}

/** `projects` lists only projects the caller can see, so a definition never reveals others. */
async function present(db: Executor, principal: Principal, rows: FieldRow[]): Promise<CustomFieldJson[]> {
  const ids = rows.map((r) => r.id);
  const [options, projects, visible] = await Promise.all([
    repo.optionsByField(db, ids),
    repo.projectsByField(db, ids),
    visibleProjectIdSet(db, principal),
  ]);
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
  const row = await foundOr404(repo.findVisibleField(db, principal, id), 'Custom field');
  return (await present(db, principal, [row]))[0]!;
}

/** Project ids the caller cannot see answer 404, like any invisible project (docs/api/access.md). */
async function assertProjectsVisible(db: Executor, principal: Principal, ids: number[]): Promise<void> {
  const visible = await visibleProjectIdSet(db, principal);
  const missing = ids.filter((id) => !visible.has(id));
  if (missing.length)
    throw new ApiError('NOT_FOUND', `Project${missing.length > 1 ? 's' : ''} not found: ${missing.join(', ')}.`, {
      projects: missing,
    });
}

const optionValueOf = (item: string | { value: string }) => (typeof item === 'string' ? item : item.value);

function duplicateValues(values: string[]): string[] {
  return [...new Set(values.filter((value, i) => values.indexOf(value) !== i))];
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function nameTaken(name: string): ApiError {
  return new ApiError('ALREADY_EXISTS', `A custom field named "${name}" already exists in this workspace.`, {
    field: 'name',
  });
}

// ---------------------------------------------------------------- reads

export async function listFields(
  ctx: AppContext,
  principal: Principal,
  projectId: number | undefined,
  page: PageRequest,
) {
  if (projectId !== undefined) await projectFor(ctx.db, principal, { id: projectId });
  const { rows, pagination } = await repo.fieldsPage(ctx.db, principal, projectId, page);
  return { data: await present(ctx.db, principal, rows), pagination };
}

export function getField(ctx: AppContext, principal: Principal, id: number): Promise<CustomFieldJson> {
  return presentOne(ctx.db, principal, id);
}

// ---------------------------------------------------------------- writes

/** A unique violation of `statement` (the workspace already has a field of that name) becomes a 409. */
async function withNameUnique<R>(tx: Tx, name: string, statement: () => Promise<R>): Promise<R> {
  try {
    return await withSavepoint(tx, statement);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(name);
    throw error;
  }
}

export async function createField(
  tx: Tx,
  principal: Principal,
  input: CustomFieldCreateInput,
): Promise<CustomFieldJson> {
  assertCanManage(principal);
  const options = (input.options ?? []).map(optionValueOf);
  if (options.length && !OPTION_TYPES.includes(input.type))
    throw invalid({ options: 'only select and multi_select fields have options' });
  const repeated = duplicateValues(options);
  if (repeated.length)
    throw invalid({ options: `option values must be unique; repeated: ${repeated.map((v) => `"${v}"`).join(', ')}` });
  if (input.projects) await assertProjectsVisible(tx.db, principal, input.projects);

  const now = tx.clock.nowIso();
  const id = await withNameUnique(tx, input.name, () =>
    repo.insertField(tx.db, {
      organization_id: principal.organizationId,
      name: input.name,
      type: input.type,
      description: input.description ?? '',
      required: input.required ? 1 : 0,
      all_projects: input.projects ? 0 : 1,
      created_by: principal.userId,
      created_at: now,
      updated_at: now,
    }),
  );
  if (input.projects?.length) await repo.replaceFieldProjects(tx.db, id, input.projects);
  await repo.insertOptions(
    tx.db,
    id,
    options.map((value, position) => ({ value, position })),
  );
  const created = await presentOne(tx.db, principal, id);
  await recordAudit(tx, {
    organizationId: principal.organizationId,
    actor: principal,
    action: 'custom_field.created',
    target: { type: 'custom_field', id, label: created.name },
    after: auditedField(created),
  });
  return created;
}

/** What an audit record keeps of a definition. */
function auditedField(field: CustomFieldJson) {
  const { name, type, description, required, projects, options } = field;
  return { name, type, description, required, projects, options: options.map((option) => option.value) };
}

async function lockedField(tx: Tx, principal: Principal, id: number): Promise<FieldRow> {
  await repo.lockFields(tx.db, tx.dialect, [id], 'update');
  return foundOr404(repo.findVisibleField(tx.db, principal, id), 'Custom field');
}

/**
 * New applicability of a field. Only projects the caller can see are changed: explicit
 * applicability to projects it cannot see is kept, as it could not have read or sent them.
 * Narrowing is refused while tasks of the projects left out hold values (nothing is dropped silently).
 */
async function applyProjects(tx: Tx, principal: Principal, field: FieldRow, projects: number[] | null): Promise<void> {
  if (projects === null) {
    await repo.replaceFieldProjects(tx.db, field.id, []);
    await repo.updateFieldColumns(tx.db, field.id, { all_projects: 1 });
    return;
  }
  await assertProjectsVisible(tx.db, principal, projects);
  const visible = await visibleProjectIdSet(tx.db, principal);
  // Narrowing a field that applied to every project keeps it on every project the caller cannot see.
  const current =
    field.all_projects === 1
      ? await repo.projectIdsOfOrganization(tx.db, principal.organizationId)
      : ((await repo.projectsByField(tx.db, [field.id])).get(field.id) ?? []);
  const next = [...new Set([...projects, ...current.filter((id) => !visible.has(id))])];

  const outside = await repo.holdersOutside(tx.db, field.id, next);
  if (outside > 0) {
    throw new ApiError(
      'FIELD_IN_USE',
      `The field would stop applying to projects where ${count(outside, 'task')} hold a value of it. Clear those values first.`,
      {
        task_count: outside,
      },
    );
  }
  await repo.replaceFieldProjects(tx.db, field.id, next);
  await repo.updateFieldColumns(tx.db, field.id, { all_projects: 0 });
}

/**
 * Replaces the option list: items with an id keep (and may rename) that option, items without
 * are new, existing options left out are deleted unless tasks hold them. Stored task values are
 * option ids, so none of this rewrites them.
 */
async function applyOptions(tx: Tx, field: FieldRow, items: OptionInputItem[]): Promise<void> {
  if (!OPTION_TYPES.includes(field.type))
    throw invalid({ options: 'only select and multi_select fields have options' });
  const existing = new Map(((await repo.optionsByField(tx.db, [field.id])).get(field.id) ?? []).map((o) => [o.id, o]));
  const errors: Record<string, string> = {};
  const seen = new Set<number>();
  const next = items.map((item, index) => {
    if (typeof item === 'string') return { value: item };
    if (item.id === undefined) {
      if (item.value === undefined)
        errors[`options[${index}]`] = 'needs an id (to keep an option) or a value (to add one)';
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
  if (repeated.length)
    throw invalid({ options: `option values must be unique; repeated: ${repeated.map((v) => `"${v}"`).join(', ')}` });

  const removed = [...existing.keys()].filter((id) => !seen.has(id));
  const usage = await repo.optionUsage(tx.db, tx.dialect, field.id, removed);
  if (usage.taskCount > 0) {
    throw new ApiError(
      'OPTION_IN_USE',
      `Options that tasks hold cannot be deleted: ${usage.optionIds.join(', ')} (held by ${count(usage.taskCount, 'task')}). Change those tasks first.`,
      { task_count: usage.taskCount, options: usage.optionIds },
    );
  }
  await repo.deleteOptions(tx.db, removed);
  for (const [position, option] of next.entries()) {
    if (option.id === undefined) await repo.insertOptions(tx.db, field.id, [{ value: option.value, position }]);
    else await repo.updateOption(tx.db, option.id, { value: option.value, position });
  }
}

/** Changes any subset of a definition; omitted fields keep their values. The type never changes. */
export async function updateField(
  tx: Tx,
  principal: Principal,
  id: number,
  input: CustomFieldUpdateInput,
): Promise<CustomFieldJson> {
  assertCanManage(principal);
  const field = await lockedField(tx, principal, id);
  const before = await presentOne(tx.db, principal, id);
  if (input.type !== undefined && input.type !== field.type)
    throw invalid({ type: "a field's type cannot change; create a new field instead" });
  if (input.projects !== undefined) await applyProjects(tx, principal, field, input.projects);
  if (input.options !== undefined) await applyOptions(tx, field, input.options);
  const set = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.required !== undefined ? { required: input.required ? 1 : 0 } : {}),
    updated_at: tx.clock.nowIso(),
  };
  await withNameUnique(tx, input.name!, () => repo.updateFieldColumns(tx.db, id, set));
  const after = await presentOne(tx.db, principal, id);
  const changes = changedFields(auditedField(before), auditedField(after));
  if (hasChanges(changes))
    await recordAudit(tx, {
      organizationId: principal.organizationId,
      actor: principal,
      action: 'custom_field.updated',
      target: { type: 'custom_field', id, label: after.name },
      ...changes,
    });
  return after;
}

/**
 * Deletes a definition and its values. Each task holding a value loses it through the task write
 * path, so the change is in its activity, the changes feed and a task.updated event like any
 * other edit. Tasks are handled in id order, the order bulk updates lock in.
 */
export async function deleteField(tx: Tx, caller: Caller, id: number): Promise<void> {
  assertCanManage(caller.principal);
  const field = await lockedField(tx, caller.principal, id);
  await recordAudit(tx, {
    organizationId: caller.principal.organizationId,
    actor: caller.principal,
    action: 'custom_field.deleted',
    target: { type: 'custom_field', id, label: field.name },
    before: { name: field.name, type: field.type },
  });
  // No new holder can appear while the field is locked; holders deleted while we wait for their
  // locks drop out of the second read (their values went with them).
  for (const taskId of await repo.holdersOf(tx.db, id)) await lockTask(tx.db, tx.dialect, taskId);
  for (const taskId of await repo.holdersOf(tx.db, id))
    await writeTaskUpdate(tx, caller.origin, await lockTaskForWrite(tx, taskId), { custom_fields: { [id]: null } });
  await repo.deleteField(tx.db, id);
}

export async function renameOption(tx: Tx, principal: Principal, optionId: number, value: string) {
  assertCanManage(principal);
  const found = await foundOr404(repo.findVisibleOption(tx.db, principal, optionId), 'Option');
  await lockedField(tx, principal, found.field);
  const before = await presentOne(tx.db, principal, found.field);
  const clash = await repo.otherOptionWithValue(tx.db, found.field, value, optionId);
  if (clash)
    throw new ApiError('ALREADY_EXISTS', `The field already has an option "${value}" (option ${clash.id}).`, {
      field: 'value',
    });
  await repo.updateOption(tx.db, optionId, { value });
  await repo.updateFieldColumns(tx.db, found.field, { updated_at: tx.clock.nowIso() });
  await auditOptions(tx, principal, before, await presentOne(tx.db, principal, found.field));
  return foundOr404(repo.findVisibleOption(tx.db, principal, optionId), 'Option');
}

/** An option renamed or the options reordered: a change of the definition's `options`. */
async function auditOptions(tx: Tx, principal: Principal, before: CustomFieldJson, after: CustomFieldJson) {
  const changes = changedFields(auditedField(before), auditedField(after));
  if (hasChanges(changes))
    await recordAudit(tx, {
      organizationId: principal.organizationId,
      actor: principal,
      action: 'custom_field.updated',
      target: { type: 'custom_field', id: after.id, label: after.name },
      ...changes,
    });
}

/** Sets the order options are offered in (positions only, never stored values; see docs/domain/custom-fields.md). */
export async function reorderOptions(
  tx: Tx,
  principal: Principal,
  fieldId: number,
  optionIds: number[],
): Promise<CustomFieldJson> {
  assertCanManage(principal);
  await lockedField(tx, principal, fieldId);
  const before = await presentOne(tx.db, principal, fieldId);
  const current = ((await repo.optionsByField(tx.db, [fieldId])).get(fieldId) ?? []).map((o) => o.id);
  const missing = current.filter((id) => !optionIds.includes(id));
  const unknown = optionIds.filter((id) => !current.includes(id));
  if (missing.length || unknown.length) {
    const problems = [
      missing.length ? `missing: ${missing.join(', ')}` : '',
      unknown.length ? `not options of this field: ${unknown.join(', ')}` : '',
    ];
    throw invalid({
      options: `must list every option of the field exactly once (${problems.filter(Boolean).join('; ')})`,
    });
  }
  for (const [position, id] of optionIds.entries()) await repo.updateOption(tx.db, id, { position });
  await repo.updateFieldColumns(tx.db, fieldId, { updated_at: tx.clock.nowIso() });
  const after = await presentOne(tx.db, principal, fieldId);
  await auditOptions(tx, principal, before, after);
  return after;
}
