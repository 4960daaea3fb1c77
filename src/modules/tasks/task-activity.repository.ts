import type { Executor } from '../../db/database.ts';
import { paginate } from '../../db/paginate.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { visibleProjectIds } from '../../policy/visibility.repository.ts';

/**
 * One page of a task's activity rows with their actors, newest first by default; rows are
 * written by recordActivities. A `mentioned_in` row is left out unless the reader sees the task
 * that named this one.
 */
export function activitiesPage(db: Executor, principal: Principal, taskId: number, page: PageRequest) {
  const query = db
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
    .where('a.task_id', '=', taskId)
    .where((eb) =>
      eb.or([
        eb('a.source_task_id', 'is', null),
        eb(
          'a.source_task_id',
          'in',
          eb.selectFrom('tasks as s').select('s.id').where('s.project_id', 'in', visibleProjectIds(db, principal)),
        ),
      ]),
    );
  return paginate(query, page, {
    idColumn: 'a.id',
    orderable: { created_at: 'a.created_at' },
    defaultOrdering: '-created_at',
  });
}
