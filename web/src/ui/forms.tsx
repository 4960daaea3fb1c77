import { useId, useState, type ReactNode } from 'react';
import { ConfirmDialog } from './confirm.tsx';

export function Field({
  label,
  children,
  hint,
}: {
  label: string;
  children: (id: string) => ReactNode;
  hint?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
      {hint ? <small className="hint">{hint}</small> : null}
    </div>
  );
}

/** A form that stays on the page: submitting runs `onSubmit` instead of navigating. */
export function Form({
  onSubmit,
  className = 'inline-form',
  children,
  label,
}: {
  onSubmit: () => void;
  className?: string;
  children: ReactNode;
  label?: string;
}) {
  return (
    <form
      className={className}
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** A row's Edit and Delete buttons; Delete asks first (`question`, what is lost) and names the row in every button. */
export function EditDelete({
  name,
  question,
  onEdit,
  onDelete,
  pending,
}: {
  name: string;
  question: string;
  onEdit: () => void;
  onDelete: () => void;
  pending: boolean;
}) {
  const [asking, setAsking] = useState(false);
  return (
    <span className="actions">
      <button type="button" onClick={onEdit}>
        Edit {name}
      </button>
      <button type="button" className="link" onClick={() => setAsking(true)}>
        Delete {name}
      </button>
      <ConfirmDialog
        open={asking}
        title={`Delete ${name}?`}
        confirmLabel={`Yes, delete ${name}`}
        cancelLabel="Keep it"
        busy={pending}
        onConfirm={() => {
          // Closed at once: a refusal shows beside the row, not behind the dialog.
          setAsking(false);
          onDelete();
        }}
        onClose={() => setAsking(false)}
      >
        <p>{question}</p>
      </ConfirmDialog>
    </span>
  );
}

/** Save (submits the form) and Cancel, as every edit form ends. */
export function SaveCancel({ pending, onCancel }: { pending?: boolean; onCancel: () => void }) {
  return (
    <div className="actions">
      <button type="submit" className="primary" disabled={pending}>
        Save
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/** A choice among items by id, the first option meaning none; `onChange` gets the id or null. */
export function IdSelect({
  id,
  value,
  items,
  none,
  onChange,
}: {
  id: string;
  value: unknown;
  items: Array<{ id: number; name: string }>;
  none: string;
  onChange: (id: number | null) => void;
}) {
  return (
    <select
      id={id}
      value={value == null ? '' : String(value)}
      onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
    >
      <option value="">{none}</option>
      {items.map((item) => (
        <option key={item.id} value={item.id}>
          {item.name}
        </option>
      ))}
    </select>
  );
}
