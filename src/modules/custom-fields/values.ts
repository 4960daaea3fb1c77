import type { Executor } from '../../db/database.ts';
import type { CustomFieldType } from '../../db/schema.ts';
import type { Principal } from '../../identity/principal.ts';
import { MAX_TEXT_LENGTH, MAX_URL_LENGTH } from './custom-fields.schemas.ts';
import { membersAmong } from '../tasks/task-input.repository.ts';
import { fieldsForTaskWrite, optionsByField, visibleFieldIdsAmong } from './custom-fields.repository.ts';

/** What a field needs to check a value: its type, whether it is required, and its option ids. */
export interface FieldForValues {
  id: number;
  name: string;
  type: CustomFieldType;
  required: boolean;
  appliesToProject: boolean;
  optionIds: Set<number>;
}

/** A normalized value to store, `null` to clear, or why the raw value is refused. */
type Checked = { value: unknown } | { error: string };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Not Date.UTC, which reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function isWebUrl(text: string): boolean {
  if (text.length > MAX_URL_LENGTH) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 1;
/** Whether an id fits the integer columns ids are stored in. */
export const isStoredId = (value: unknown): value is number => isId(value) && value <= 2147483647;

/**
 * Checks one raw value against its field's type. `null`, `""` (text) and `[]` (multi_select)
 * clear the value, so a stored value is never empty. multi_select values are stored sorted by
 * option id: the order of a set carries no meaning, and sorting keeps "same set" equal.
 * User membership is checked by the caller (it needs the database).
 */
export function checkValue(field: FieldForValues, raw: unknown): Checked {
  if (raw === null) return { value: null };
  switch (field.type) {
    case 'text':
      if (typeof raw !== 'string') return { error: 'must be a string' };
      if (raw.length > MAX_TEXT_LENGTH) return { error: `must be at most ${MAX_TEXT_LENGTH} characters` };
      return { value: raw === '' ? null : raw };
    case 'number':
      return typeof raw === 'number' && Number.isFinite(raw) ? { value: raw } : { error: 'must be a finite number' };
    case 'date':
      return typeof raw === 'string' && isCalendarDate(raw) ? { value: raw } : { error: 'must be a date, YYYY-MM-DD' };
    case 'boolean':
      return typeof raw === 'boolean' ? { value: raw } : { error: 'must be true or false' };
    case 'url':
      return typeof raw === 'string' && isWebUrl(raw)
        ? { value: raw }
        : { error: `must be an http or https URL of at most ${MAX_URL_LENGTH} characters` };
    case 'user':
      return isStoredId(raw) ? { value: raw } : { error: 'must be a user id' };
    case 'select':
      if (!isId(raw)) return { error: 'must be an option id of this field' };
      return field.optionIds.has(raw) ? { value: raw } : { error: `${raw} is not an option of this field` };
    case 'multi_select': {
      if (!Array.isArray(raw) || !raw.every(isId)) return { error: 'must be a list of option ids of this field' };
      if (new Set(raw).size !== raw.length) return { error: 'must not repeat an option' };
      const unknown = raw.filter((id) => !field.optionIds.has(id));
      if (unknown.length) return { error: `not options of this field: ${unknown.join(', ')}` };
      return { value: raw.length ? [...raw].sort((a, b) => a - b) : null };
    }
  }
}

/**
 * The fields a task write needs: those named in the input, plus (on create) the required fields
 * that apply to the project. Two queries whatever the number of fields.
 */
export async function loadFieldsForValues(
  db: Executor,
  project: { id: number; organization_id: number },
  ids: number[],
  includeRequired: boolean,
): Promise<Map<number, FieldForValues>> {
  if (ids.length === 0 && !includeRequired) return new Map();
  const rows = await fieldsForTaskWrite(db, project, ids, includeRequired);
  const options = await optionsByField(
    db,
    rows.filter((r) => r.type === 'select' || r.type === 'multi_select').map((r) => r.id),
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        name: r.name,
        type: r.type,
        required: r.required === 1,
        // SQLite returns 0/1, PostgreSQL a boolean.
        appliesToProject: Boolean(r.applies),
        optionIds: new Set((options.get(r.id) ?? []).map((o) => o.id)),
      },
    ]),
  );
}

export type FieldErrors = Record<string, string>;

const unknownField = (id: number) => `no custom field ${id} in this workspace`;

/**
 * Resolves a task's `custom_fields` input for one project, as `principal` writes it: `changes`
 * maps field id to the value to store (null: clear). `current` is the task's present values, or
 * null when creating; on create every required field that applies must get a value, and a
 * required field can never be cleared. Errors are keyed `custom_fields.<id>`.
 */
export async function resolveCustomFieldValues(
  db: Executor,
  principal: Principal,
  project: { id: number; organization_id: number },
  input: Record<string, unknown> | undefined,
  current: Record<string, unknown> | null,
): Promise<{ changes: Record<number, unknown>; errors: FieldErrors }> {
  const changes: Record<number, unknown> = {};
  const errors: FieldErrors = {};
  const entries = Object.entries(input ?? {}).map(([id, raw]) => [Number(id), raw] as const);
  const creating = current === null;
  // Keys beyond the integer range cannot be field ids (and PostgreSQL would refuse to compare them).
  const fields = await loadFieldsForValues(db, project, entries.map(([id]) => id).filter(isStoredId), creating);

  const usersToCheck = new Map<number, number>();
  const notApplying: number[] = [];
  for (const [id, raw] of entries) {
    const name = `custom_fields.${id}`;
    const field = fields.get(id);
    if (!field) {
      errors[name] = unknownField(id);
      continue;
    }
    if (!field.appliesToProject) {
      errors[name] = `the field "${field.name}" does not apply to this project`;
      notApplying.push(id);
      continue;
    }
    const checked = checkValue(field, raw);
    if ('error' in checked) {
      errors[name] = `"${field.name}" ${checked.error}`;
      continue;
    }
    if (checked.value === null && field.required) {
      errors[name] = creating ? `"${field.name}" is required` : `"${field.name}" is required and cannot be cleared`;
      continue;
    }
    if (creating && checked.value === null) continue;
    // Like the assignee: membership is checked when the user changes, so an unrelated edit never fails on it.
    if (field.type === 'user' && checked.value !== null && checked.value !== current?.[String(id)])
      usersToCheck.set(id, checked.value as number);
    changes[id] = checked.value;
  }

  if (creating) {
    for (const field of fields.values()) {
      if (
        field.required &&
        field.appliesToProject &&
        changes[field.id] === undefined &&
        !errors[`custom_fields.${field.id}`]
      ) {
        errors[`custom_fields.${field.id}`] = `"${field.name}" is required`;
      }
    }
  }

  // A definition the caller cannot see is answered like an unknown one, so its name is not told.
  if (notApplying.length) {
    const visible = await visibleFieldIdsAmong(db, principal, notApplying);
    for (const id of notApplying) if (!visible.has(id)) errors[`custom_fields.${id}`] = unknownField(id);
  }

  if (usersToCheck.size) {
    const memberIds = await membersAmong(db, project.id, [...new Set(usersToCheck.values())]);
    for (const [id, userId] of usersToCheck) {
      if (memberIds.has(userId)) continue;
      errors[`custom_fields.${id}`] = `"${fields.get(id)!.name}": user ${userId} is not a member of this project`;
      delete changes[id];
    }
  }
  return { changes, errors };
}
