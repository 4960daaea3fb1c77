import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { Task } from '../../lib/api-types.ts';
import { getAll, put } from '../../lib/http.ts';
import { bulkUpdateTasks } from '../tasks/api.ts';
import { Dialog, ErrorNote, Field, Form } from '../../ui/index.ts';

interface SprintRow {
  id: number;
  name: string;
  state?: unknown;
}

/** Where a completed sprint's open tasks go: another sprint's id, the backlog, or nowhere. */
type Destination = `${number}` | 'backlog' | 'stay';

/** The bulk update's limit per call. */
const BATCH = 100;

/**
 * Completes a sprint and offers to move its open tasks (status not in the done category) to a
 * planned or active sprint of the project (the API's `carry_over_to`, one change) or to the
 * backlog (no sprint, through bulk updates before the sprint completes), or to leave them.
 */
export function CompleteSprintDialog({
  projectKey,
  sprint,
  sprints,
  onClose,
  onDone,
}: {
  projectKey: string;
  sprint: SprintRow;
  sprints: SprintRow[];
  onClose: () => void;
  onDone: () => void;
}) {
  const open = useQuery({
    queryKey: ['sprint-open-tasks', sprint.id],
    queryFn: async ({ signal }) =>
      (await getAll<Task>(`/api/v1/projects/${projectKey}/tasks/?sprint=${sprint.id}`, signal)).filter(
        (t) => t.status_category !== 'done',
      ),
    staleTime: 0,
  });
  const targets = sprints.filter((s) => s.id !== sprint.id && s.state !== 'completed');
  const [destination, setDestination] = useState<Destination>(targets[0] ? `${targets[0].id}` : 'backlog');
  const complete = useMutation({
    mutationFn: async () => {
      const tasks = open.data ?? [];
      if (destination === 'backlog')
        for (let i = 0; i < tasks.length; i += BATCH)
          await bulkUpdateTasks(
            projectKey,
            tasks.slice(i, i + BATCH).map((t) => ({ key: t.key, sprint: null })),
          );
      const carry = destination !== 'backlog' && destination !== 'stay' && tasks.length > 0;
      await put(`/api/v1/sprints/${sprint.id}/`, {
        state: 'completed',
        ...(carry ? { carry_over_to: Number(destination) } : {}),
      });
    },
    meta: { quiet: true },
    onSuccess: onDone,
  });
  const count = open.data?.length ?? 0;
  return (
    <Dialog open onClose={onClose} title={`Complete ${sprint.name}`}>
      <Form className="stack" label={`Complete ${sprint.name}`} onSubmit={() => complete.mutate()}>
        <ErrorNote error={open.error} />
        {!open.data ? (
          <p className="muted">Counting its open tasks…</p>
        ) : count === 0 ? (
          <p>Every task of {sprint.name} is done.</p>
        ) : (
          <>
            <p>
              {count === 1 ? '1 task is' : `${count} tasks are`} not done: {open.data.map((t) => t.key).join(', ')}.
            </p>
            <Field label="Move the open tasks to">
              {(id) => (
                <select id={id} value={destination} onChange={(e) => setDestination(e.target.value as Destination)}>
                  {targets.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name} ({String(s.state)})
                    </option>
                  ))}
                  <option value="backlog">The backlog (no sprint)</option>
                  <option value="stay">Nowhere: they stay in {sprint.name}</option>
                </select>
              )}
            </Field>
          </>
        )}
        <ErrorNote error={complete.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={!open.data || complete.isPending}>
            Complete the sprint
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </Form>
    </Dialog>
  );
}
