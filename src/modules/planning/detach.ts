import { sql } from 'kysely';
import type { Trx } from '../../db/database.ts';

export type PlanningItem = { kind: 'label' | 'milestone' | 'sprint'; id: number };

/**
 * Takes a label, milestone or sprint off every task carrying it, as the first step of deleting
 * it, inside the caller's transaction. Each of those tasks changes (its JSON loses the value),
 * so it gets a new version (ETag) and `updated_at`. Returns the ids of the tasks changed, in
 * id order, for the per-task change records of the same transaction.
 */
export async function detachFromTasks(trx: Trx, item: PlanningItem, now: string): Promise<number[]> {
  const bump = { version: sql<number>`version + 1`, updated_at: now };
  if (item.kind === 'label') {
    const carriers = trx.selectFrom('task_labels').select('task_id').where('label_id', '=', item.id);
    const rows = await carriers.orderBy('task_id').execute();
    if (rows.length === 0) return [];
    await trx.updateTable('tasks').set(bump).where('id', 'in', carriers).execute();
    await trx.deleteFrom('task_labels').where('label_id', '=', item.id).execute();
    return rows.map((r) => r.task_id);
  }

  const column = item.kind === 'milestone' ? 'milestone_id' : 'sprint_id';
  const rows = await trx.selectFrom('tasks').select('id').where(column, '=', item.id).orderBy('id').execute();
  if (rows.length === 0) return [];
  await trx
    .updateTable('tasks')
    .set({ ...bump, [column]: null })
    .where(column, '=', item.id)
    .execute();
  return rows.map((r) => r.id);
}
