import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { usePeople } from '../people/use-people.ts';
import { useSession } from '../session/session-provider.tsx';
import { ErrorNote, Field, Spinner } from '../../ui/index.ts';
import { createProject, projectKeys } from './api.ts';
import { useProjects } from './use-project.ts';

export function Projects() {
  const projects = useProjects();
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const [keyEdited, setKeyEdited] = useState(false);
  const { session } = useSession();
  const manager = session?.user.role === 'owner' || session?.user.role === 'admin';
  const create = useMutation({
    mutationFn: () => createProject({ name, key }),
    meta: { quiet: true },
    onSuccess: async (project) => {
      await client.invalidateQueries({ queryKey: projectKeys.all });
      navigate(`/p/${project.key}/board`);
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <section aria-labelledby="projects-title" className="page">
      <header className="screen-head">
        <h1 id="projects-title">Projects</h1>
      </header>
      <ErrorNote error={projects.error} />
      {projects.isPending ? <Spinner /> : null}
      {projects.data?.length === 0 ? (
        manager ? (
          <p>No projects yet: create the first one below.</p>
        ) : (
          <AskToBeAdded />
        )
      ) : null}
      <ul className="project-list" role="list">
        {projects.data?.map((p) => (
          <li key={p.id}>
            <Link href={`/p/${p.key}/board`} data-nav-item="">
              <strong>{p.name}</strong> <span className="muted">{p.key}</span>
            </Link>
            <span className="muted"> {p.role}</span>
          </li>
        ))}
      </ul>
      <h2>New project</h2>
      <form onSubmit={onSubmit} className="inline-form">
        <Field label="Name">
          {(id) => (
            <input
              id={id}
              required
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                if (!keyEdited) setKey(keyFrom(e.target.value));
              }}
            />
          )}
        </Field>
        <Field label="Key" hint="2 to 10 capital letters or digits, e.g. WEB">
          {(id) => (
            <input
              id={id}
              required
              value={key}
              pattern="[A-Z][A-Z0-9]{1,9}"
              onChange={(e) => {
                setKey(e.target.value.toUpperCase());
                setKeyEdited(true);
              }}
            />
          )}
        </Field>
        <button type="submit" className="primary" disabled={create.isPending}>
          Create project
        </button>
      </form>
      <ErrorNote error={create.error} />
    </section>
  );
}

/** "Website redesign" → "WR", "Website" → "WEB": a key the service accepts, to edit or keep. */
function keyFrom(name: string): string {
  const words = name
    .normalize('NFKD')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
  if (!words.length) return '';
  const key = words.length > 1 ? words.map((w) => w[0]).join('') : words[0]!.slice(0, 3);
  const letters = key.replace(/^[0-9]+/, '').slice(0, 10);
  return letters.length >= 2 ? letters : '';
}

/** Someone in no project yet (an invited member): who in the organization can add them. */
function AskToBeAdded() {
  const people = usePeople();
  const admins = (people.data ?? []).filter(
    (p) => p.kind === 'human' && p.active && (p.role === 'owner' || p.role === 'admin'),
  );
  return (
    <div className="empty-state" role="note">
      <p>
        <strong>You are not in any project yet.</strong> A project's admin adds you to it, and it shows here once they
        do. You can also create a project of your own below.
      </p>
      {admins.length ? (
        <>
          <p>Ask one of them to add you:</p>
          <ul className="people-to-ask">
            {admins.map((p) => (
              <li key={p.id}>
                {p.name}
                {p.email ? (
                  <>
                    {' '}
                    <a href={`mailto:${p.email}`}>{p.email}</a>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
