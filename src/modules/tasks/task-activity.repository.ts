import type { Executor } from '../../db/database.ts';

/** A task's activity rows with their actors, for one page (see paginate); rows are written by recordActivities. */
export function activitiesOfTask(db: Executor, taskId: number) {
  return db
    .selectFrom('activities as a')
    .leftJoin('users as u', 'u.id', 'a.actor_id')
    .select([
      'a.id',
      'a.action',
      'a.field',
      'a.from_value',
      'a.to_value',
      'a.created_at',
      'u.id as actor_id',
      'u.name as actor_name',
    ])
    .where('a.task_id', '=', taskId);
}
