import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { useProjects } from '../projects/use-project.ts';
import { Dialog, ErrorNote, Field } from '../../ui/index.ts';
import { createTask, taskKeys } from './api.ts';

/** A task's title and description in a dialog; `projectKey` null keeps it closed, '' lets the person choose. */
export function NewTaskDialog({ projectKey, onClose }: { projectKey: string | null; onClose: () => void }) {
  const projects = useProjects();
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [project, setProject] = useState('');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  useEffect(() => {
    if (projectKey !== null) setProject(projectKey || projects.data?.[0]?.key || '');
  }, [projectKey, projects.data]);
  const create = useMutation({
    mutationFn: () => createTask(project, { title, description }),
    meta: { quiet: true },
    onSuccess: ({ data }) => {
      void client.invalidateQueries({ queryKey: taskKeys.lists(data.project) });
      setTitle('');
      setDescription('');
      onClose();
      window.dispatchEvent(new CustomEvent('tt:created', { detail: data.key }));
      navigate(`/p/${data.project}/board`);
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Dialog open={projectKey !== null} onClose={onClose} title="New task">
      <form className="stack" onSubmit={onSubmit}>
        <Field label="Project">
          {(id) => (
            <select id={id} value={project} onChange={(e) => setProject(e.target.value)} required>
              {projects.data?.map((p) => (
                <option key={p.id} value={p.key}>
                  {p.name} ({p.key})
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Title">
          {(id) => (
            <input
              id={id}
              required
              maxLength={500}
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              autoFocus
            />
          )}
        </Field>
        <Field label="Description (markdown)">
          {(id) => <textarea id={id} rows={5} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        <ErrorNote error={create.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={create.isPending || !project}>
            Create task
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
