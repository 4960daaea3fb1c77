import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import type { Task } from '../../lib/api-types.ts';
import { Dialog, ErrorNote } from '../../ui/index.ts';
import { searchQuery } from './api.ts';

export function SearchDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [q, setQ] = useState('');
  const [debounced, setDebounced] = useState('');
  const [at, setAt] = useState(0);
  const [, navigate] = useLocation();
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(q.trim()), 150);
    return () => clearTimeout(timer);
  }, [q]);
  const results = useQuery({ ...searchQuery(debounced), enabled: open && debounced.length > 0 });
  const items = results.data ?? [];
  const choose = (task: Task | undefined) => {
    if (!task) return;
    onClose();
    setQ('');
    navigate(`/t/${task.key}`);
  };
  return (
    <Dialog open={open} onClose={onClose} title="Search">
      <div className="search">
        <input
          type="search"
          aria-label="Search tasks"
          role="combobox"
          aria-expanded={items.length > 0}
          aria-controls="search-results"
          aria-activedescendant={items[at] ? `result-${items[at].key}` : undefined}
          placeholder="Words from a title or description, or a key"
          value={q}
          data-autofocus=""
          onChange={(e) => {
            setQ(e.target.value);
            setAt(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setAt(Math.min(items.length - 1, at + 1));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setAt(Math.max(0, at - 1));
            } else if (e.key === 'Escape') {
              // A search field spends Escape on clearing itself; here it closes the dialog, as everywhere.
              e.preventDefault();
              onClose();
            } else if (e.key === 'Enter') {
              e.preventDefault();
              choose(items[at]);
            }
          }}
        />
        <ErrorNote error={results.error} />
        <ul id="search-results" role="listbox" aria-label="Results" className="results">
          {items.map((task, i) => (
            <li
              key={task.key}
              id={`result-${task.key}`}
              role="option"
              aria-selected={i === at}
              onClick={() => choose(task)}
              onMouseEnter={() => setAt(i)}
            >
              <span className="key">{task.key}</span> {task.title} <span className="chip">{task.status}</span>
            </li>
          ))}
        </ul>
        {debounced && results.isSuccess && !items.length ? <p className="muted">No task matches.</p> : null}
      </div>
    </Dialog>
  );
}
