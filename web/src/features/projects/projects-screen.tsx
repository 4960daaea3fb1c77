import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { ErrorNote, Field, Spinner } from '../../ui/index.ts';
import { createProject, projectKeys } from './api.ts';
import { useProjects } from './use-project.ts';

export function Projects() {
  const projects = useProjects();
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
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
      {projects.data?.length === 0 ? <p>No projects yet: create the first one below.</p> : null}
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
          {(id) => <input id={id} required value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Key" hint="2 to 10 capital letters or digits, e.g. WEB">
          {(id) => (
            <input
              id={id}
              required
              value={key}
              pattern="[A-Z][A-Z0-9]{1,9}"
              onChange={(e) => setKey(e.target.value.toUpperCase())}
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
