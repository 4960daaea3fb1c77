import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import type { components } from '@tasktracker/client';
import { get, post } from '../../lib/http.ts';
import { ErrorNote } from '../../ui/index.ts';

export type View = components['schemas']['View'];

/** The saved view named by `?view=` (its query narrows the screen, its `group_by` groups a timeline). */
export function useSavedView(id: string | null) {
  return useQuery({
    queryKey: ['views', id],
    queryFn: ({ signal }) => get<View>(`/api/v1/views/${id}/`, signal),
    enabled: id !== null && /^\d+$/.test(id),
  });
}

/**
 * The view this screen shows, if any, and a form to save what it shows now as a view with this
 * layout (calendar or timeline), to reopen from its address or the views list.
 */
export function SavedViewBar({
  view,
  layout,
  project,
  query,
  groupBy,
}: {
  view: View | undefined;
  layout: 'calendar' | 'timeline';
  project: string | null;
  query: string;
  groupBy: View['group_by'];
}) {
  const [, navigate] = useLocation();
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const save = useMutation({
    mutationFn: () => post<View>('/api/v1/views/', { name, query, layout, group_by: groupBy, project, shared }),
    meta: { quiet: true },
    onSuccess: (saved) => {
      setNaming(false);
      setName('');
      const params = new URLSearchParams(window.location.search);
      params.set('view', String(saved.id));
      params.delete('q');
      navigate(`${window.location.pathname}?${params}`, { replace: true });
    },
  });
  return (
    <div className="saved-view">
      {view ? (
        <p className="saved-view-name">
          View <strong>{view.name}</strong>
          {view.query ? <code>{view.query}</code> : null}
          <button
            type="button"
            className="link"
            onClick={() => {
              const params = new URLSearchParams(window.location.search);
              params.delete('view');
              navigate(`${window.location.pathname}${params.size ? `?${params}` : ''}`, { replace: true });
            }}
          >
            Leave the view
          </button>
        </p>
      ) : naming ? (
        <form
          className="inline-form"
          aria-label="Save as a view"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <label className="field">
            <span>View name</span>
            <input value={name} required maxLength={100} onChange={(e) => setName(e.target.value)} autoFocus />
          </label>
          <label className="check">
            <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} /> Shared
          </label>
          <button type="submit" className="primary" disabled={save.isPending || !name.trim()}>
            Save view
          </button>
          <button type="button" className="link" onClick={() => setNaming(false)}>
            Cancel
          </button>
          <ErrorNote error={save.error} title="The view was not saved" />
        </form>
      ) : (
        <button type="button" onClick={() => setNaming(true)}>
          Save as a view
        </button>
      )}
    </div>
  );
}
