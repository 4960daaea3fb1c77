import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { Category, Project, Status } from '../../lib/api-types.ts';
import { CustomFieldsSection } from '../custom-fields/custom-fields-section.tsx';
import { usePeople } from '../people/use-people.ts';
import { membersQuery, projectKeys, renameProject, workflowQuery } from '../projects/api.ts';
import { useProject, useProjectConfig } from '../projects/use-project.ts';
import { ErrorNote, Field, Form, SortableList, Spinner, categoryLabel } from '../../ui/index.ts';
import {
  addMember,
  addStatus,
  addTransition,
  changeMemberRole,
  deleteStatus,
  deleteTransition,
  removeMember,
  reorderStatuses,
} from './api.ts';
import { LABELS, MILESTONES, PlanningSection, SPRINTS } from './planning-section.tsx';

const SECTIONS = [
  ['members-title', 'Members'],
  ['statuses-title', 'Statuses'],
  ['workflow-title', 'Workflow'],
  ['types-title', 'Types and priorities'],
  ['labels-title', 'Labels'],
  ['milestones-title', 'Milestones'],
  ['sprints-title', 'Sprints'],
  ['custom-fields-title', 'Custom fields'],
] as const;

/**
 * A project's name, members and roles, statuses in board order, the workflow as a from/to
 * grid, its labels, milestones and sprints, and the custom fields that apply to it.
 */
export function ProjectSettings({ projectKey }: { projectKey: string }) {
  const { project, isPending, error } = useProject(projectKey);
  const config = useProjectConfig(project);
  const client = useQueryClient();
  const [name, setName] = useState<string | null>(null);
  const rename = useMutation({
    mutationFn: () => renameProject(project!, name ?? project!.name),
    meta: { quiet: true },
    onSuccess: () => {
      setName(null);
      void client.invalidateQueries({ queryKey: projectKeys.all });
    },
  });
  if (isPending) return <Spinner />;
  if (!project) return <ErrorNote error={error ?? new Error(`No project ${projectKey} is visible to you.`)} />;
  return (
    <section className="page" aria-labelledby="psettings-title">
      <header className="screen-head">
        <h1 id="psettings-title">
          {project.name} <span className="muted">settings</span>
        </h1>
        <Link href={`/p/${project.key}/board`}>Back to the board</Link>
      </header>
      <nav aria-label="Settings sections" className="toc">
        {SECTIONS.filter(([id]) => id !== 'workflow-title' || project.workflow !== null).map(([id, label]) => (
          <a key={id} href={`#${id}`}>
            {label}
          </a>
        ))}
      </nav>
      <Form onSubmit={() => rename.mutate()}>
        <Field label="Project name">
          {(id) => <input id={id} required value={name ?? project.name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <button type="submit" disabled={name === null}>
          Rename
        </button>
      </Form>
      <ErrorNote error={rename.error ?? config.error} />
      <Members project={project} />
      <Statuses project={project} statuses={config.statuses} />
      {project.workflow !== null ? <TransitionGrid project={project} statuses={config.statuses} /> : null}
      <section aria-labelledby="types-title">
        <h2 id="types-title">Task types and priorities</h2>
        <p>
          Types: {config.types.map((t) => t.name).join(', ')}. Priorities:{' '}
          {config.priorities.map((p) => p.name).join(', ')}.
        </p>
        <p className="muted">Every project has these; the API offers no way to change them yet.</p>
      </section>
      <PlanningSection kind={LABELS} projectKey={project.key} />
      <PlanningSection kind={MILESTONES} projectKey={project.key} />
      <PlanningSection kind={SPRINTS} projectKey={project.key} />
      <CustomFieldsSection project={project} />
    </section>
  );
}

function Members({ project }: { project: Project }) {
  const client = useQueryClient();
  const members = useQuery(membersQuery(project));
  const people = usePeople();
  const [user, setUser] = useState('');
  const refresh = () => client.invalidateQueries({ queryKey: projectKeys.members(project.key) });
  const add = useMutation({
    mutationFn: () => addMember(project.id, Number(user)),
    meta: { quiet: true },
    onSuccess: refresh,
  });
  const change = useMutation({
    mutationFn: ({ id, role }: { id: number; role: string }) => changeMemberRole(id, role),
    meta: { quiet: true },
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: removeMember,
    meta: { quiet: true },
    onSuccess: refresh,
  });
  const outside = people.data?.filter((p) => p.active && !members.data?.some((m) => m.user === p.id)) ?? [];
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      <ErrorNote error={members.error ?? change.error ?? remove.error} />
      <ul className="plain">
        {members.data?.map((m) => (
          <li key={m.id} className="actions">
            <span>{m.user_name}</span>
            <select
              aria-label={`Role of ${m.user_name}`}
              value={m.role}
              onChange={(e) => change.mutate({ id: m.id, role: e.target.value })}
            >
              <option value="admin">admin</option>
              <option value="member">member</option>
              <option value="viewer">viewer</option>
            </select>
            <button type="button" className="link" onClick={() => remove.mutate(m.id)}>
              Remove {m.user_name}
            </button>
          </li>
        ))}
      </ul>
      <Form onSubmit={() => add.mutate()}>
        <Field label="Add a member">
          {(id) => (
            <select id={id} required value={user} onChange={(e) => setUser(e.target.value)}>
              <option value="">Choose…</option>
              {outside.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit">Add</button>
      </Form>
      <ErrorNote error={add.error} />
    </section>
  );
}

/** Board order: drag a status by its handle (mouse, touch or keyboard), or use its move buttons. */
function Statuses({ project, statuses }: { project: Project; statuses: Status[] }) {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [category, setCategory] = useState<Category>('todo');
  const refresh = () => {
    void client.invalidateQueries({ queryKey: projectKeys.statuses(project.key) });
    void client.invalidateQueries({ queryKey: projectKeys.workflow(project.key) });
  };
  const reorder = useMutation({
    mutationFn: (ids: number[]) => reorderStatuses(project.id, ids),
    meta: { quiet: true },
    // Returning the refetch keeps the new order shown until the stored one is read.
    onSettled: () => client.invalidateQueries({ queryKey: projectKeys.statuses(project.key) }),
  });
  const add = useMutation({
    mutationFn: () => addStatus(project.id, name, category),
    meta: { quiet: true },
    onSuccess: () => {
      setName('');
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: deleteStatus,
    meta: { quiet: true },
    onSuccess: refresh,
  });
  return (
    <section aria-labelledby="statuses-title">
      <h2 id="statuses-title">Statuses</h2>
      <ErrorNote error={reorder.error ?? remove.error} />
      <SortableList items={statuses} noun="statuses" name={(s) => s.name} onReorder={(ids) => reorder.mutateAsync(ids)}>
        {(s) => (
          <>
            <span className={`dot cat-${s.category}`} aria-hidden="true" />
            <span className="row-main">
              <strong>{s.name}</strong> <span className="muted">{categoryLabel[s.category]}</span>
              {s.is_default ? <span className="chip">default</span> : null}
            </span>
            <button type="button" className="link" onClick={() => remove.mutate(s.id)}>
              Delete {s.name}
            </button>
          </>
        )}
      </SortableList>
      <Form onSubmit={() => add.mutate()}>
        <Field label="New status">
          {(id) => <input id={id} required value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Category">
          {(id) => (
            <select id={id} value={category} onChange={(e) => setCategory(e.target.value as Category)}>
              <option value="todo">To do</option>
              <option value="in_progress">In progress</option>
              <option value="done">Done</option>
            </select>
          )}
        </Field>
        <button type="submit">Add status</button>
      </Form>
      <ErrorNote error={add.error} />
    </section>
  );
}

function TransitionGrid({ project, statuses }: { project: Project; statuses: Status[] }) {
  const client = useQueryClient();
  const workflowId = project.workflow!;
  const workflow = useQuery(workflowQuery(project));
  const refresh = () => client.invalidateQueries({ queryKey: projectKeys.workflow(project.key) });
  const toggle = useMutation({
    mutationFn: async ({ from, to }: { from: Status; to: Status }) => {
      const existing = workflow.data?.transitions.find((t) => t.from_status === from.id && t.to_status === to.id);
      if (existing) await deleteTransition(existing.id);
      else await addTransition(workflowId, from, to);
    },
    meta: { quiet: true },
    // Returning the refetch keeps the toggle pending until the grid shows the server's answer.
    onSettled: refresh,
  });
  const stored = (from: Status, to: Status) =>
    workflow.data?.transitions.some((t) => t.from_status === from.id && t.to_status === to.id) ?? false;
  // The cell being toggled shows its new state at once (a controlled checkbox would otherwise
  // snap back until the refetch lands); a refused toggle returns to the stored state.
  const toggling = toggle.isPending ? toggle.variables : undefined;
  const allowed = (from: Status, to: Status) =>
    toggling?.from.id === from.id && toggling.to.id === to.id ? !stored(from, to) : stored(from, to);
  return (
    <section aria-labelledby="workflow-title">
      <h2 id="workflow-title">Workflow</h2>
      <p className="muted">A tick lets a task move from the row's status to the column's.</p>
      <ErrorNote error={workflow.error ?? toggle.error} />
      <div className="table-wrap">
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">From \ To</th>
              {statuses.map((s) => (
                <th key={s.id} scope="col">
                  {s.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {statuses.map((from) => (
              <tr key={from.id}>
                <th scope="row">{from.name}</th>
                {statuses.map((to) => (
                  <td key={to.id}>
                    {from.id === to.id ? (
                      <span className="muted" aria-label="same status">
                        —
                      </span>
                    ) : (
                      <input
                        type="checkbox"
                        aria-label={`${from.name} to ${to.name}`}
                        checked={allowed(from, to)}
                        disabled={toggle.isPending || !workflow.data}
                        onChange={() => toggle.mutate({ from, to })}
                      />
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
