import type { Tx } from '../../db/unit-of-work.ts';
import type { ActionOrigin } from '../../events/record-event.ts';
import { labelIdsOf } from '../tasks/task.repository.ts';
import { lockTaskForWrite, writeTaskUpdate } from '../tasks/task-writes.ts';
import { deletePlanningRow, tasksCarrying } from './planning.repository.ts';

export type PlanningItem = { kind: 'label' | 'milestone' | 'sprint'; id: number };

const TABLE = { label: 'labels', milestone: 'milestones', sprint: 'sprints' } as const;

/**
 * Deletes a label, milestone or sprint after taking it off every task carrying it. Each task
 * goes through the task write path, so it gets a new version, an activity row, a change record
 * and a task.updated event, and sync clients learn that the value is gone.
 */
export async function deleteAndDetach(tx: Tx, origin: ActionOrigin, item: PlanningItem): Promise<void> {
  for (const taskId of await tasksCarrying(tx.db, item)) {
    if (item.kind === 'label') {
      const remaining = (await labelIdsOf(tx.db, taskId)).filter((id) => id !== item.id);
      await writeTaskUpdate(tx, origin, await lockTaskForWrite(tx, taskId), { label_ids: remaining });
    } else {
      await writeTaskUpdate(tx, origin, await lockTaskForWrite(tx, taskId), {
        [item.kind === 'milestone' ? 'milestone_id' : 'sprint_id']: null,
      });
    }
  }
  await deletePlanningRow(tx.db, TABLE[item.kind], item.id);
}
