import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { cardOf, placeOnBoards, versionOf } from '../board/api.ts';
import { useProjects } from '../projects/use-project.ts';
import { Dialog, ErrorNote, Field, errorNotice, useNotify } from '../../ui/index.ts';
import { createTask, taskKeys, updateTask } from './api.ts';
import { MarkdownInput } from './markdown-input.tsx';

/** What opens the dialog: the project ('' lets the person choose) and the status (a board column's own add). */
export interface NewTaskRequest {
  project: string;
  status?: string;
}

/** A task's title and description in a dialog; `request` null keeps it closed. */
export function NewTaskDialog({ request, onClose }: { request: NewTaskRequest | null; onClose: () => void }) {
  const projectKey = request?.project ?? null;
  const status = request?.status;
  const projects = useProjects();
  const client = useQueryClient();
  const notify = useNotify();
  const [, navigate] = useLocation();
  const [project, setProject] = useState('');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  useEffect(() => {
    if (projectKey !== null) setProject(projectKey || projects.data?.[0]?.key || '');
  }, [projectKey, projects.data]);
  const create = useMutation({
    // A task starts in its project's first status; a column's own add then moves it there.
    mutationFn: async () => {
      const created = await createTask(project, { title, description });
      if (!status || project !== projectKey || created.data.status === status) return created;
      try {
        const moved = await updateTask(created.data.key, { status }, created.etag);
        return { data: moved.task, etag: moved.etag };
      } catch (error) {
        notify({
          ...errorNotice(error),
          message: `${created.data.key} was created in ${created.data.status} but could not move to ${status}: ${errorNotice(error).message}`,
        });
        return created;
      }
    },
    meta: { quiet: true },
    onSuccess: ({ data, etag }) => {
      // Open boards take the new card as it is; other lists read again where shown.
      placeOnBoards(client, data.project, data.key, cardOf(data, versionOf(etag)), false);
      void client.invalidateQueries({
        queryKey: taskKeys.lists(data.project),
        predicate: (query) => query.queryKey[2] !== 'board',
      });
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
    <Dialog open={request !== null} onClose={onClose} title={status ? `New task in ${status}` : 'New task'}>
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
              data-autofocus=""
            />
          )}
        </Field>
        <Field label="Description (markdown)">
          {(id) => (
            <MarkdownInput id={id} rows={5} value={description} onChange={setDescription} projectKey={project} />
          )}
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
