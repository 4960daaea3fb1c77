import type { Executor } from '../../db/database.ts';
import type { Principal } from '../auth/principal.ts';
import { visibleProjects } from '../../policy/index.ts';

/** Visible projects with their defaults resolved to names and the caller's role. */
export function selectVisibleProjects(db: Executor, principal: Principal) {
  return visibleProjects(db, principal)
    .leftJoin('statuses as ds', 'ds.id', 'p.default_status_id')
    .leftJoin('task_types as dt', 'dt.id', 'p.default_task_type_id')
    .leftJoin('priorities as dp', 'dp.id', 'p.default_priority_id')
    .select([
      'p.id',
      'p.key',
      'p.name',
      'p.description',
      'p.workflow_id',
      'ds.name as default_status',
      'dt.name as default_task_type',
      'dp.name as default_priority',
      'pm.role',
      'p.created_by',
      'p.created_at',
      'p.updated_at',
    ]);
}

export type ProjectRow = Awaited<ReturnType<ReturnType<typeof selectVisibleProjects>['executeTakeFirstOrThrow']>>;

export function findVisibleProject(db: Executor, principal: Principal, id: number): Promise<ProjectRow | undefined> {
  return selectVisibleProjects(db, principal).where('p.id', '=', id).executeTakeFirst();
}

export function findNamedId(db: Executor, table: 'statuses' | 'task_types' | 'priorities', projectId: number, name: string) {
  return db.selectFrom(table).select('id').where('project_id', '=', projectId).where('name', '=', name).executeTakeFirst();
}
