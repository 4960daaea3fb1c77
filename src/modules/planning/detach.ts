import type { AppContext } from '../../context.ts';
import type { Trx } from '../../db/database.ts';
import type { ActionOrigin } from '../../events/record-event.ts';
import { labelIdsOf } from '../tasks/task.repository.ts';
import { applyTaskUpdate } from '../tasks/task-writes.ts';

export type PlanningItem = { kind: 'label' | 'milestone' | 'sprint'; id: number };

/**
 * Takes a label, milestone or sprint off every task carrying it, as the first step of deleting
 * it, inside the caller's transaction. Each task goes through the task write path, so it gets a
 * new version, an activity row, a change record and a task.updated event, and sync clients
 * learn that the value is gone.
 */
export async function detachFromTasks(trx: Trx, ctx: AppContext, origin: ActionOrigin, item: PlanningItem): Promise<void> {
  if (item.kind === 'label') {
    const carriers = await trx.selectFrom('task_labels').select('task_id').where('label_id', '=', item.id).orderBy('task_id').execute();
    for (const { task_id } of carriers) {
      const remaining = (await labelIdsOf(trx, task_id)).filter((id) => id !== item.id);
      await applyTaskUpdate(trx, ctx, origin, task_id, { label_ids: remaining });
    }
    return;
  }
  const column = item.kind === 'milestone' ? 'milestone_id' : 'sprint_id';
  const tasks = await trx.selectFrom('tasks').select('id').where(column, '=', item.id).orderBy('id').execute();
  for (const { id } of tasks) await applyTaskUpdate(trx, ctx, origin, id, { [column]: null });
}
