import type { CustomField, CustomFieldType } from '../../lib/api-types.ts';
import type { ProjectConfig } from '../projects/use-project.ts';
import { Field, IdSelect, formatDate } from '../../ui/index.ts';

export const TYPE_LABEL: Record<CustomFieldType, string> = {
  text: 'Text',
  number: 'Number',
  date: 'Date',
  boolean: 'Yes / no',
  url: 'Link (URL)',
  user: 'Person',
  select: 'One of a list',
  multi_select: 'Several of a list',
};
export const hasOptions = (type: CustomFieldType) => type === 'select' || type === 'multi_select';

/** A stored value as a person reads it (options and people by name). */
export function customValueText(field: CustomField, value: unknown, config: ProjectConfig): string {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return '—';
  const option = (id: unknown) => field.options.find((o) => o.id === id)?.value ?? `#${String(id)}`;
  switch (field.type) {
    case 'boolean':
      return value ? 'Yes' : 'No';
    case 'date':
      return formatDate(String(value));
    case 'user':
      return config.memberName(value as number);
    case 'select':
      return option(value);
    case 'multi_select':
      return (value as unknown[]).map(option).join(', ');
    default:
      return String(value);
  }
}

/** The input for one custom field in the task's edit form; `onChange` gets the value to send (null clears). */
export function CustomFieldInput({
  field,
  value,
  onChange,
  config,
}: {
  field: CustomField;
  value: unknown;
  onChange: (v: unknown) => void;
  config: ProjectConfig;
}) {
  const label = `${field.name}${field.required ? ' (required)' : ''}`;
  if (field.type === 'multi_select') {
    const chosen = Array.isArray(value) ? (value as number[]) : [];
    return (
      <fieldset className="field checks">
        <legend>{label}</legend>
        {field.options.map((o) => (
          <label key={o.id} className="check">
            <input
              type="checkbox"
              checked={chosen.includes(o.id)}
              onChange={(e) =>
                onChange(
                  e.target.checked ? [...chosen, o.id].sort((a, b) => a - b) : chosen.filter((id) => id !== o.id),
                )
              }
            />{' '}
            {o.value}
          </label>
        ))}
      </fieldset>
    );
  }
  return (
    <Field label={label} hint={field.description || undefined}>
      {(id) => {
        const text = value === null || value === undefined ? '' : String(value);
        switch (field.type) {
          case 'select':
            return (
              <IdSelect
                id={id}
                value={value}
                none="None"
                items={field.options.map((o) => ({ id: o.id, name: o.value }))}
                onChange={onChange}
              />
            );
          case 'user':
            return <IdSelect id={id} value={value} none="Nobody" items={config.people} onChange={onChange} />;
          case 'boolean':
            return (
              <select
                id={id}
                value={value === true ? 'yes' : value === false ? 'no' : ''}
                onChange={(e) => onChange(e.target.value === '' ? null : e.target.value === 'yes')}
              >
                <option value="">Not set</option>
                <option value="yes">Yes</option>
                <option value="no">No</option>
              </select>
            );
          case 'number':
            return (
              <input
                id={id}
                type="number"
                step="any"
                value={text}
                onChange={(e) =>
                  onChange(
                    e.target.value === '' || Number.isNaN(e.target.valueAsNumber) ? null : e.target.valueAsNumber,
                  )
                }
              />
            );
          case 'date':
            return <input id={id} type="date" value={text} onChange={(e) => onChange(e.target.value || null)} />;
          case 'url':
            return (
              <input
                id={id}
                type="url"
                placeholder="https://"
                value={text}
                onChange={(e) => onChange(e.target.value || null)}
              />
            );
          default:
            return <input id={id} maxLength={10_000} value={text} onChange={(e) => onChange(e.target.value || null)} />;
        }
      }}
    </Field>
  );
}
