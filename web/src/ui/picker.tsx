import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

export interface PickerOption {
  value: string;
  label: string;
  /** Shown before the label (an avatar, a colour). */
  lead?: ReactNode;
}

/**
 * A field's value as a button that opens a searchable list: type to narrow, arrows to move,
 * Enter to choose, Escape to close. `multiple` keeps it open and toggles each choice; `onCreate`
 * offers what was typed as a new choice when nothing matches it exactly.
 */
export function Picker({
  label,
  field,
  options,
  selected,
  onChange,
  multiple = false,
  onCreate,
  onSearch,
  display,
  disabled,
  placeholder = 'Search…',
}: {
  label: string;
  /** Names the picker for code that opens it (the `l` shortcut). */
  field?: string;
  options: PickerOption[];
  selected: string[];
  onChange: (values: string[]) => void;
  multiple?: boolean;
  onCreate?: (text: string) => void;
  /** Options come from the server: called with the text as it is typed instead of filtering here. */
  onSearch?: (text: string) => void;
  display: ReactNode;
  disabled?: boolean;
  placeholder?: string;
}) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [at, setAt] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const listId = useId();
  const labelId = useId();
  const needle = text.trim().toLowerCase();
  const shown = onSearch ? options : options.filter((o) => o.label.toLowerCase().includes(needle));
  const canCreate = Boolean(onCreate && needle && !options.some((o) => o.label.toLowerCase() === needle));
  const count = shown.length + (canCreate ? 1 : 0);

  useEffect(() => {
    if (!open) return;
    input.current?.focus();
    const away = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);
  useEffect(() => onSearch?.(text), [text, onSearch]);

  const close = () => {
    setOpen(false);
    setText('');
    button.current?.focus();
  };
  const choose = (index: number) => {
    if (index >= shown.length) {
      if (canCreate) onCreate!(text.trim());
      setText('');
      if (!multiple) close();
      return;
    }
    const value = shown[index]!.value;
    if (multiple) {
      onChange(selected.includes(value) ? selected.filter((v) => v !== value) : [...selected, value]);
    } else {
      onChange([value]);
      close();
    }
  };

  return (
    <div className="picker" ref={root} data-field={field}>
      <span id={labelId} className="picker-label">
        {label}
      </span>
      <button
        ref={button}
        type="button"
        className="picker-value"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-labelledby={`${labelId} ${labelId}-value`}
        disabled={disabled}
        onClick={() => setOpen(!open)}
      >
        <span id={`${labelId}-value`}>{display}</span>
      </button>
      {open ? (
        <div className="picker-pop">
          <input
            ref={input}
            type="text"
            role="combobox"
            aria-label={`Search ${label.toLowerCase()}`}
            aria-expanded="true"
            aria-controls={listId}
            aria-activedescendant={count ? `${listId}-${Math.min(at, count - 1)}` : undefined}
            placeholder={placeholder}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setAt(0);
            }}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') {
                e.preventDefault();
                setAt(Math.min(count - 1, at + 1));
              } else if (e.key === 'ArrowUp') {
                e.preventDefault();
                setAt(Math.max(0, at - 1));
              } else if (e.key === 'Enter') {
                e.preventDefault();
                if (count) choose(Math.min(at, count - 1));
              } else if (e.key === 'Escape') {
                e.preventDefault();
                e.stopPropagation();
                close();
              }
            }}
          />
          <ul id={listId} role="listbox" aria-label={label} aria-multiselectable={multiple || undefined}>
            {shown.map((o, i) => (
              <li
                key={o.value}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={selected.includes(o.value)}
                className={i === at ? 'active' : undefined}
                onPointerDown={(e) => e.preventDefault()}
                onClick={() => choose(i)}
                onPointerEnter={() => setAt(i)}
              >
                {o.lead}
                <span>{o.label}</span>
                {selected.includes(o.value) ? <span aria-hidden="true"> ✓</span> : null}
              </li>
            ))}
            {canCreate ? (
              <li
                id={`${listId}-${shown.length}`}
                role="option"
                aria-selected={false}
                className={at === shown.length ? 'active' : undefined}
                onPointerDown={(e) => e.preventDefault()}
                onClick={() => choose(shown.length)}
              >
                Create “{text.trim()}”
              </li>
            ) : null}
            {!count ? (
              <li role="option" aria-selected={false} aria-disabled="true" className="muted">
                Nothing matches.
              </li>
            ) : null}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
