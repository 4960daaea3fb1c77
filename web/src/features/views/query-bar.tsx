import { useId, useRef, useState } from 'react';
import { ApiError } from '../../lib/http.ts';
import { complete, type KnownValues } from './completion.ts';

/**
 * The query bar: a text field with completion of the language's fields, operators, values and
 * functions (↓ ↑ to choose, Enter or Tab to take one), run with Enter; a query the service
 * refuses is underlined where it went wrong, with the service's message and what it expected.
 */
export function QueryBar({
  value,
  ran,
  onChange,
  onRun,
  error,
  known,
}: {
  value: string;
  /** The query last run, which `error` is about (the field may have changed since). */
  ran: string;
  onChange: (value: string) => void;
  onRun: (value: string) => void;
  error: unknown;
  known: KnownValues;
}) {
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const errorId = useId();
  const [caret, setCaret] = useState(value.length);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const completion = complete(value, caret, known);
  const showing = open && completion.suggestions.length > 0;
  const invalid = error instanceof ApiError && error.code === 'INVALID_QUERY' ? error : null;

  const take = (index: number) => {
    const choice = completion.suggestions[index];
    if (!choice) return;
    const next = value.slice(0, completion.from) + choice.insert + value.slice(caret).trimStart();
    const at = completion.from + choice.insert.length;
    onChange(next);
    setCaret(at);
    setActive(-1);
    requestAnimationFrame(() => input.current?.setSelectionRange(at, at));
  };

  return (
    <div className="query-bar">
      <div className="query-input">
        <label htmlFor={`${listId}-input`} className="sr-only">
          Query
        </label>
        <input
          ref={input}
          id={`${listId}-input`}
          role="combobox"
          aria-expanded={showing}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={showing && active >= 0 ? `${listId}-${active}` : undefined}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={invalid ? errorId : undefined}
          spellCheck={false}
          autoComplete="off"
          placeholder="assignee = me() AND status_category != done ORDER BY due ASC"
          value={value}
          onChange={(e) => {
            onChange(e.target.value);
            setCaret(e.target.selectionStart ?? e.target.value.length);
            setOpen(true);
            setActive(-1);
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart ?? value.length)}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={(e) => {
            if (showing && e.key === 'ArrowDown') {
              e.preventDefault();
              setActive((active + 1) % completion.suggestions.length);
            } else if (showing && e.key === 'ArrowUp') {
              e.preventDefault();
              setActive(active <= 0 ? completion.suggestions.length - 1 : active - 1);
            } else if (showing && active >= 0 && (e.key === 'Enter' || e.key === 'Tab')) {
              e.preventDefault();
              take(active);
            } else if (e.key === 'Escape' && showing) {
              e.preventDefault();
              e.stopPropagation();
              setOpen(false);
            } else if (e.key === 'Enter') {
              e.preventDefault();
              setOpen(false);
              onRun(value);
            }
          }}
        />
        <button type="button" onClick={() => onRun(value)}>
          Run query
        </button>
      </div>
      {showing ? (
        <ul id={listId} role="listbox" aria-label="Suggestions" className="query-suggestions">
          {completion.suggestions.map((s, i) => (
            <li
              key={`${s.kind}-${s.label}`}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              // Chosen before the field loses focus, so the list is still there to take from.
              onMouseDown={(e) => {
                e.preventDefault();
                take(i);
              }}
            >
              {s.label} <span className="muted">{s.kind}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {invalid ? <QueryErrorNote id={errorId} query={ran} error={invalid} /> : null}
    </div>
  );
}

/** The service's message, and the query with the place it went wrong underlined. */
function QueryErrorNote({ id, query, error }: { id: string; query: string; error: ApiError }) {
  const position = typeof error.details.position === 'number' ? error.details.position : null;
  const expected = Array.isArray(error.details.expected) ? (error.details.expected as string[]) : [];
  return (
    <div className="query-error error" role="alert" id={id}>
      <p>{error.message}</p>
      {position !== null ? (
        <code className="query-echo" aria-hidden="true">
          {query.slice(0, position)}
          <mark>{query.slice(position, position + Math.max(1, wordLength(query, position))) || ' '}</mark>
          {query.slice(position + Math.max(1, wordLength(query, position)))}
        </code>
      ) : null}
      {expected.length ? <p className="muted">Expected: {expected.slice(0, 12).join(', ')}</p> : null}
    </div>
  );
}

/** How far the word at `position` runs, so the whole wrong word is underlined. */
const wordLength = (text: string, position: number) => /^[^\s()",=<>!~]*/.exec(text.slice(position))![0].length;
