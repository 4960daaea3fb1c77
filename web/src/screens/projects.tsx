import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { post, type Project } from '../api.ts';
import { keys, useProjects } from '../data.ts';
import { ErrorNote, Field, Spinner } from '../ui.tsx';

export function ProjectTabs({
  project,
  current,
  titleId,
}: {
  project: Project;
  current: 'board' | 'list';
  titleId: string;
}) {
  return (
    <header className="screen-head">
      <h1 id={titleId}>
        {project.name} <span className="muted">{project.key}</span>
      </h1>
      <nav aria-label="Project views" className="tabs">
        <Link href={`/p/${project.key}/board`} aria-current={current === 'board' ? 'page' : undefined}>
          Board
        </Link>
        <Link href={`/p/${project.key}/list`} aria-current={current === 'list' ? 'page' : undefined}>
          List
        </Link>
        <Link href={`/p/${project.key}/settings`}>Settings</Link>
      </nav>
      <button
        type="button"
        className="primary"
        onClick={() => window.dispatchEvent(new CustomEvent('tt:new-task', { detail: project.key }))}
      >
        New task <kbd>c</kbd>
      </button>
    </header>
  );
}

export function Projects() {
  const projects = useProjects();
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const create = useMutation({
    mutationFn: () => post<Project>('/api/v1/projects/', { name, key }),
    meta: { quiet: true },
    onSuccess: async (project) => {
      await client.invalidateQueries({ queryKey: keys.projects });
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
