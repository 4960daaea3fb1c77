import type { TaskStates } from '../query/query.service.ts';
import type { TaskJson } from '../tasks/task.schemas.ts';

/**
 * What a change record keeps of the task right before the change (task_changes.before), so a
 * query can be judged on both sides of any change (webhook filters, the filtered changes feed)
 * from the record alone, whatever compaction removed since: for an update the task JSON's
 * properties that differed, as they were; for a deletion the whole task; nothing for a creation.
 */
export function storedBefore(
  action: 'created' | 'updated' | 'deleted',
  before: TaskJson | null,
  after: TaskJson | null,
) {
  if (action === 'created' || before === null) return null;
  if (action === 'deleted' || after === null) return JSON.stringify(before);
  const differed = Object.fromEntries(
    Object.entries(before).filter(
      ([property, value]) => JSON.stringify(value) !== JSON.stringify(after[property as keyof TaskJson]),
    ),
  );
  return JSON.stringify(differed);
}

/**
 * The task right before and right after a change, from its record. A record written before
 * task_changes.before existed has no earlier state: its task is judged as it was after only.
 */
export function taskStatesOf(change: {
  task_id: number;
  action: 'created' | 'updated' | 'deleted';
  task: string | null;
  before: string | null;
}): TaskStates {
  const after = change.task === null ? null : (JSON.parse(change.task) as TaskJson);
  const stored = change.before === null ? null : (JSON.parse(change.before) as Partial<TaskJson>);
  const before =
    change.action === 'created'
      ? null
      : change.action === 'deleted'
        ? (stored as TaskJson | null)
        : stored === null
          ? after
          : { ...after!, ...stored };
  return { taskId: change.task_id, before, after };
}
