import type { Executor } from '../../db/database.ts';
import { optionsByField } from '../custom-fields/custom-fields.repository.ts';
import { customFieldsByIds } from './notifications.repository.ts';

/**
 * How a notification names a changed field: a task property as the API names it, a custom
 * field (`custom_fields.<id>` in events and activity) by its name, and a select field's values
 * by their options' values, as the person reading it knows them.
 */
export interface FieldLabels {
  name(field: string): string;
  value(field: string, value: unknown): unknown;
}

const CUSTOM = /^custom_fields\.(\d+)$/;

function idOf(field: string): number | null {
  const match = CUSTOM.exec(field);
  return match ? Number(match[1]) : null;
}

/** The labels of the custom fields among `fields`, read in two queries. */
export async function fieldLabels(db: Executor, fields: Iterable<string>): Promise<FieldLabels> {
  const ids = [...new Set([...fields].flatMap((field) => idOf(field) ?? []))];
  const definitions = new Map((ids.length ? await customFieldsByIds(db, ids) : []).map((f) => [f.id, f]));
  const options = await optionsByField(
    db,
    [...definitions.values()].filter((f) => f.type === 'select' || f.type === 'multi_select').map((f) => f.id),
  );
  const optionValues = new Map([...options.values()].flat().map((o) => [o.id, o.value]));
  return {
    // A field deleted since (its values were cleared as it went) has no name left to show.
    name: (field) => {
      const id = idOf(field);
      return id === null ? field : (definitions.get(id)?.name ?? 'a deleted custom field');
    },
    value: (field, value) => {
      const id = idOf(field);
      if (id === null || !options.has(id)) return value;
      const valueOf = (option: unknown) => (typeof option === 'number' ? (optionValues.get(option) ?? option) : option);
      return Array.isArray(value) ? value.map(valueOf) : valueOf(value);
    },
  };
}
