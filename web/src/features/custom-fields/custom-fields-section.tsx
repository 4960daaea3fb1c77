import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CustomField, CustomFieldType, Project } from '../../lib/api-types.ts';
import { useCustomFields } from '../projects/use-project.ts';
import { EditDelete, ErrorNote, Field, Form, SaveCancel, SortableList } from '../../ui/index.ts';
import { createCustomField, deleteCustomField, renameOption, reorderOptions, updateCustomField } from './api.ts';
import { TYPE_LABEL, hasOptions } from './custom-field-input.tsx';

/**
 * The custom fields that apply to a project. Definitions belong to the workspace (owners and
 * admins write them): a new one applies to this project or to every project; select types
 * carry options, reordered by drag.
 */
export function CustomFieldsSection({ project }: { project: Project }) {
  const client = useQueryClient();
  const fields = useCustomFields(project);
  const [name, setName] = useState('');
  const [type, setType] = useState<CustomFieldType>('text');
  const [required, setRequired] = useState(false);
  const [everywhere, setEverywhere] = useState(false);
  const [options, setOptions] = useState('');
  // A field belongs to the workspace and may apply to any project.
  const refresh = () =>
    client.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'project' && q.queryKey[2] === 'custom-fields' });
  const create = useMutation({
    mutationFn: () =>
      createCustomField({
        name,
        type,
        required,
        projects: everywhere ? null : [project.id],
        ...(hasOptions(type)
          ? {
              options: options
                .split('\n')
                .map((o) => o.trim())
                .filter(Boolean),
            }
          : {}),
      }),
    meta: { quiet: true },
    onSuccess: () => {
      setName('');
      setOptions('');
      setRequired(false);
      void refresh();
    },
  });
  return (
    <section aria-labelledby="custom-fields-title">
      <h2 id="custom-fields-title">Custom fields</h2>
      <p className="muted">Fields are shared by the workspace; only its owners and admins define them.</p>
      <ErrorNote error={fields.error} />
      {fields.data?.length === 0 ? <p className="muted">No custom field applies to this project.</p> : null}
      <ul className="plain rows">
        {fields.data?.map((f) => (
          <FieldRow key={f.id} field={f} projectId={project.id} onChanged={refresh} />
        ))}
      </ul>
      <Form className="stack" label="New custom field" onSubmit={() => create.mutate()}>
        <h3>New custom field</h3>
        <div className="inline-form">
          <Field label="Field name">
            {(id) => <input id={id} required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <Field label="Type">
            {(id) => (
              <select id={id} value={type} onChange={(e) => setType(e.target.value as CustomFieldType)}>
                {Object.entries(TYPE_LABEL).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <ScopeChecks
            required={required}
            setRequired={setRequired}
            everywhere={everywhere}
            setEverywhere={setEverywhere}
          />
        </div>
        {hasOptions(type) ? (
          <Field label="Options" hint="One a line, in the order they are offered.">
            {(id) => <textarea id={id} rows={4} value={options} onChange={(e) => setOptions(e.target.value)} />}
          </Field>
        ) : null}
        <div className="actions">
          <button type="submit" disabled={create.isPending}>
            Add field
          </button>
        </div>
        <ErrorNote error={create.error} />
      </Form>
    </section>
  );
}

/** The calls that change a custom field: its settings or its whole option list, deleting it, reordering and renaming options. */
function useFieldChanges(fieldId: number, onChanged: () => unknown, onSaved: () => void) {
  const change = useMutation({
    mutationFn: (body: Record<string, unknown>) => updateCustomField(fieldId, body),
    meta: { quiet: true },
    onSuccess: () => {
      onSaved();
      return onChanged();
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteCustomField(fieldId),
    meta: { quiet: true },
    onSuccess: onChanged,
  });
  const reorder = useMutation({
    mutationFn: (ids: number[]) => reorderOptions(fieldId, ids),
    meta: { quiet: true },
    onSettled: onChanged,
  });
  const rename = useMutation({
    mutationFn: ({ id, value }: { id: number; value: string }) => renameOption(id, value),
    meta: { quiet: true },
    onSuccess: onChanged,
  });
  return { change, remove, reorder, rename };
}

function FieldRow({
  field,
  projectId,
  onChanged,
}: {
  field: CustomField;
  projectId: number;
  onChanged: () => unknown;
}) {
  const [editing, setEditing] = useState(false);
  const [option, setOption] = useState('');
  const { change, remove, reorder, rename } = useFieldChanges(field.id, onChanged, () => {
    setEditing(false);
    setOption('');
  });
  // The options as a complete list (ids kept), which is how the API adds and deletes them.
  const kept = field.options.map((o) => ({ id: o.id }));
  return (
    <li className="custom-field">
      {editing ? (
        <FieldEditor
          field={field}
          projectId={projectId}
          pending={change.isPending}
          onSave={(body) => change.mutate(body)}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <div className="row">
          <span className="row-main">
            <strong>{field.name}</strong> <span className="chip">{TYPE_LABEL[field.type]}</span>
            {field.required ? <span className="chip">required</span> : null}{' '}
            <span className="muted">{field.projects === null ? 'every project' : 'chosen projects'}</span>
          </span>
          <EditDelete
            name={field.name}
            question={`Delete ${field.name} and every value of it?`}
            pending={remove.isPending}
            onDelete={() => remove.mutate()}
            onEdit={() => setEditing(true)}
          />
        </div>
      )}
      <ErrorNote error={change.error ?? remove.error ?? reorder.error ?? rename.error} />
      {hasOptions(field.type) ? (
        <div className="options">
          <SortableList
            items={field.options}
            noun={`options of ${field.name}`}
            name={(o) => o.value}
            onReorder={(ids) => reorder.mutateAsync(ids)}
          >
            {(o) => (
              <>
                <OptionEditor value={o.value} onRename={(value) => rename.mutate({ id: o.id, value })} />
                <button
                  type="button"
                  className="link"
                  onClick={() => change.mutate({ options: kept.filter((k) => k.id !== o.id) })}
                >
                  Delete option {o.value}
                </button>
              </>
            )}
          </SortableList>
          <Form onSubmit={() => change.mutate({ options: [...kept, option.trim()] })}>
            <Field label={`New option of ${field.name}`}>
              {(id) => (
                <input id={id} required maxLength={200} value={option} onChange={(e) => setOption(e.target.value)} />
              )}
            </Field>
            <button type="submit" disabled={change.isPending}>
              Add option
            </button>
          </Form>
        </div>
      ) : null}
    </li>
  );
}

/** A field's name, whether it is required and where it applies, starting from what it is now; only what changed is saved. */
function FieldEditor({
  field,
  projectId,
  pending,
  onSave,
  onCancel,
}: {
  field: CustomField;
  projectId: number;
  pending: boolean;
  onSave: (body: Record<string, unknown>) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(field.name);
  const [required, setRequired] = useState(field.required);
  const [everywhere, setEverywhere] = useState(field.projects === null);
  return (
    <Form
      className="inline-form editor"
      label={`Edit field ${field.name}`}
      onSubmit={() =>
        onSave({
          ...(name !== field.name ? { name } : {}),
          ...(required !== field.required ? { required } : {}),
          // Narrowing to this project is refused (409) while other projects' tasks hold values.
          ...(everywhere !== (field.projects === null) ? { projects: everywhere ? null : [projectId] } : {}),
        })
      }
    >
      <Field label="Field name">
        {(id) => <input id={id} required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <ScopeChecks
        required={required}
        setRequired={setRequired}
        everywhere={everywhere}
        setEverywhere={setEverywhere}
      />
      <SaveCancel pending={pending} onCancel={onCancel} />
    </Form>
  );
}

/** An option's text, renamed in place; Save shows once it differs. */
function OptionEditor({ value, onRename }: { value: string; onRename: (value: string) => void }) {
  const [text, setText] = useState(value);
  return (
    <Form
      className="option-editor"
      label={`Rename option ${value}`}
      onSubmit={() => text.trim() && text !== value && onRename(text.trim())}
    >
      <input
        aria-label={`Option ${value}`}
        required
        maxLength={200}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      {text !== value ? <button type="submit">Save</button> : null}
    </Form>
  );
}

/** Whether a field is required, and whether it applies to every project or to this one. */
function ScopeChecks(props: {
  required: boolean;
  setRequired: (v: boolean) => void;
  everywhere: boolean;
  setEverywhere: (v: boolean) => void;
}) {
  return (
    <>
      <label className="check">
        <input type="checkbox" checked={props.required} onChange={(e) => props.setRequired(e.target.checked)} />{' '}
        Required
      </label>
      <label className="check">
        <input type="checkbox" checked={props.everywhere} onChange={(e) => props.setEverywhere(e.target.checked)} />{' '}
        Every project
      </label>
    </>
  );
}
