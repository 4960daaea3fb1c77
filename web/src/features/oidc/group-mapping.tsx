import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorNote, Field, Form, Spinner, formatDateTime, useNotify } from '../../ui/index.ts';
import { mappingQuery, removeMapping, saveMapping, type GroupMapping, type GroupMappingInput } from './api.ts';

const WORKSPACE_ROLES = ['owner', 'admin', 'member', 'guest'];
const PROJECT_ROLES = ['admin', 'member', 'viewer'];

/**
 * Settings → Sign-in, for owners: which of the provider's groups give which workspace role and
 * project memberships. Saved here, it replaces OIDC_ROLE_MAP and OIDC_PROJECT_MAP for the
 * organization; every change is in the audit log.
 */
export function GroupMappingSection() {
  const mapping = useQuery(mappingQuery);
  return (
    <section aria-labelledby="mapping-title">
      <h2 id="mapping-title">Groups to roles</h2>
      <ErrorNote error={mapping.error} />
      {mapping.isPending ? <Spinner /> : null}
      {/* Keyed by when it was saved: a save or a removal starts the form again from what is stored. */}
      {mapping.data ? (
        <MappingForm key={`${mapping.data.source}-${mapping.data.updated_at}`} saved={mapping.data} />
      ) : null}
    </section>
  );
}

function MappingForm({ saved }: { saved: GroupMapping }) {
  const client = useQueryClient();
  const notify = useNotify();
  const [draft, setDraft] = useState<GroupMappingInput>({
    groups_claim: saved.groups_claim,
    roles: saved.roles,
    projects: saved.projects,
  });
  const done = (message: string) => (next: GroupMapping) => {
    client.setQueryData(mappingQuery.queryKey, next);
    notify({ kind: 'info', message });
  };
  const save = useMutation({
    mutationFn: () => saveMapping(draft),
    meta: { quiet: true },
    onSuccess: done('Mapping saved.'),
  });
  const reset = useMutation({
    mutationFn: removeMapping,
    meta: { quiet: true },
    onSuccess: done('Back to the mapping of the environment.'),
  });
  const setRole = (i: number, change: Partial<GroupMappingInput['roles'][number]>) =>
    setDraft((d) => ({ ...d, roles: d.roles.map((r, j) => (i === j ? { ...r, ...change } : r)) }));
  const setProject = (i: number, change: Partial<GroupMappingInput['projects'][number]>) =>
    setDraft((d) => ({ ...d, projects: d.projects.map((p, j) => (i === j ? { ...p, ...change } : p)) }));
  return (
    <>
      <p className="muted">
        {saved.source === 'environment'
          ? 'From OIDC_GROUPS_CLAIM, OIDC_ROLE_MAP and OIDC_PROJECT_MAP. Saving here replaces them for this organization.'
          : `Saved here${saved.updated_by ? ` by ${saved.updated_by.name}` : ''}, ${formatDateTime(saved.updated_at)}; it replaces OIDC_ROLE_MAP and OIDC_PROJECT_MAP.`}{' '}
        Applied at every sign-in; the last owner is never demoted. Changes are in the audit log.
      </p>
      <Form className="stack" label="Groups to roles" onSubmit={() => save.mutate()}>
        <Field label="Groups claim" hint="The claim of the ID token that lists the person's groups.">
          {(id) => (
            <input
              id={id}
              required
              maxLength={100}
              value={draft.groups_claim}
              onChange={(e) => setDraft((d) => ({ ...d, groups_claim: e.target.value }))}
            />
          )}
        </Field>
        <fieldset className="stack">
          <legend>Workspace roles</legend>
          {draft.roles.length === 0 ? <p className="muted">No group gives a workspace role.</p> : null}
          {draft.roles.map((r, i) => (
            <div key={i} className="inline-form">
              <input
                aria-label={`Group ${i + 1}`}
                required
                maxLength={200}
                value={r.group}
                onChange={(e) => setRole(i, { group: e.target.value })}
              />
              <select
                aria-label={`Role of group ${i + 1}`}
                value={r.role}
                onChange={(e) => setRole(i, { role: e.target.value })}
              >
                {WORKSPACE_ROLES.map((role) => (
                  <option key={role}>{role}</option>
                ))}
              </select>
              <button
                type="button"
                className="link"
                onClick={() => setDraft((d) => ({ ...d, roles: d.roles.filter((_, j) => j !== i) }))}
              >
                Remove group {i + 1}
              </button>
            </div>
          ))}
          <div>
            <button
              type="button"
              onClick={() => setDraft((d) => ({ ...d, roles: [...d.roles, { group: '', role: 'member' }] }))}
            >
              Add a group for a workspace role
            </button>
          </div>
        </fieldset>
        <fieldset className="stack">
          <legend>Project memberships</legend>
          {draft.projects.length === 0 ? <p className="muted">No group gives a project membership.</p> : null}
          {draft.projects.map((p, i) => (
            <div key={i} className="inline-form">
              <input
                aria-label={`Project group ${i + 1}`}
                required
                maxLength={200}
                value={p.group}
                onChange={(e) => setProject(i, { group: e.target.value })}
              />
              <input
                aria-label={`Project key of group ${i + 1}`}
                required
                pattern="[A-Z][A-Z0-9]*"
                maxLength={10}
                size={8}
                value={p.project}
                onChange={(e) => setProject(i, { project: e.target.value.toUpperCase() })}
              />
              <select
                aria-label={`Project role of group ${i + 1}`}
                value={p.role}
                onChange={(e) => setProject(i, { role: e.target.value })}
              >
                {PROJECT_ROLES.map((role) => (
                  <option key={role}>{role}</option>
                ))}
              </select>
              <button
                type="button"
                className="link"
                onClick={() => setDraft((d) => ({ ...d, projects: d.projects.filter((_, j) => j !== i) }))}
              >
                Remove project group {i + 1}
              </button>
            </div>
          ))}
          <div>
            <button
              type="button"
              onClick={() =>
                setDraft((d) => ({ ...d, projects: [...d.projects, { group: '', project: '', role: 'member' }] }))
              }
            >
              Add a group for a project
            </button>
          </div>
        </fieldset>
        <ErrorNote error={save.error ?? reset.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            Save mapping
          </button>
          {saved.source === 'settings' ? (
            <button type="button" onClick={() => reset.mutate()} disabled={reset.isPending}>
              Use the environment's mapping
            </button>
          ) : null}
        </div>
      </Form>
    </>
  );
}
