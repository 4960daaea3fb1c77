import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { qs } from '../../lib/http.ts';
import type { ProjectConfig } from '../projects/use-project.ts';
import { FILTER_NAMES, type TaskFilters } from './filters.ts';

/** Board and list filters, kept in the URL so a filtered view can be shared and survives a reload. */
export function Filters({
  config,
  filters,
  base,
  count,
  total,
}: {
  config: ProjectConfig;
  filters: TaskFilters;
  base: string;
  count: number;
  /** How many match in all, when more than `count` are not loaded yet. */
  total?: number;
}) {
  const [, navigate] = useLocation();
  const [text, setText] = useState(filters.q ?? '');
  const [more, setMore] = useState(false);
  const set = (name: keyof TaskFilters, value: string) => {
    const next: Record<string, string> = {};
    for (const key of FILTER_NAMES) if (filters[key]) next[key] = filters[key]!;
    if (value) next[name] = value;
    else delete next[name];
    navigate(`${base}${qs(next)}`, { replace: true });
  };
  useEffect(() => setText(filters.q ?? ''), [filters.q]);
  useEffect(() => {
    if (text === (filters.q ?? '')) return;
    const timer = setTimeout(() => set('q', text), 200);
    return () => clearTimeout(timer);
  });
  const select = (name: keyof TaskFilters, label: string, options: Array<{ value: string; label: string }>) => (
    <label className="filter extra">
      <span>{label}</span>
      <select value={filters[name] ?? ''} onChange={(e) => set(name, e.target.value)}>
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
  const active = FILTER_NAMES.some((name) => filters[name]);
  const chosen = FILTER_NAMES.filter((name) => name !== 'q' && filters[name]).length;
  return (
    <form
      className={more ? 'filters more-open' : 'filters'}
      role="search"
      aria-label="Filter tasks"
      onSubmit={(e) => e.preventDefault()}
    >
      <label className="filter grow">
        <span>Text</span>
        <input type="search" value={text} placeholder="Title or key" onChange={(e) => setText(e.target.value)} />
      </label>
      <button type="button" className="more-filters" aria-expanded={more} onClick={() => setMore(!more)}>
        More filters{chosen ? ` (${chosen})` : ''}
      </button>
      {select('assignee', 'Assignee', [
        { value: 'none', label: 'Unassigned' },
        ...config.members.map((m) => ({ value: String(m.user), label: m.user_name })),
      ])}
      {select(
        'label',
        'Label',
        config.labels.map((l) => ({ value: l.name, label: l.name })),
      )}
      {select(
        'task_type',
        'Type',
        config.types.map((t) => ({ value: t.name, label: t.name })),
      )}
      {select(
        'priority',
        'Priority',
        config.priorities.map((p) => ({ value: p.name, label: p.name })),
      )}
      {select('sprint', 'Sprint', [
        { value: 'none', label: 'No sprint' },
        ...config.sprints.map((s) => ({ value: String(s.id), label: s.name })),
      ])}
      {select(
        'milestone',
        'Milestone',
        config.milestones.map((m) => ({ value: String(m.id), label: m.name })),
      )}
      <span className="muted count-note" aria-live="polite">
        {total !== undefined && total > count ? `${count.toLocaleString()} of ${total.toLocaleString()} tasks` : null}
        {total === undefined || total <= count ? `${count.toLocaleString()} ${count === 1 ? 'task' : 'tasks'}` : null}
      </span>
      {active ? (
        <button type="button" className="link" onClick={() => navigate(base, { replace: true })}>
          Clear filters
        </button>
      ) : null}
    </form>
  );
}
