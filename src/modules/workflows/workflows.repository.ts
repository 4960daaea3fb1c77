import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { insertWithTimestamps } from '../../db/insert-with-timestamps.ts';
import { paginate } from '../../db/paginate.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { visibleProjectIds } from '../../policy/visibility.repository.ts';

/** Workflows of the caller's visible projects (any other reads as absent), flagging each project's active one. */
function visibleWorkflows(db: Executor, principal: Principal, filters: { project?: number } = {}) {
  const query = db
    .selectFrom('workflows as w')
    .innerJoin('projects as wp', 'wp.id', 'w.project_id')
    .where('w.project_id', 'in', visibleProjectIds(db, principal))
    .select([
      'w.id',
      'w.project_id as project',
      'w.name',
      'w.description',
      sql<number>`case when wp.workflow_id = w.id then 1 else 0 end`.as('active'),
      'w.created_at',
      'w.updated_at',
    ]);
  return filters.project === undefined ? query : query.where('w.project_id', '=', filters.project);
}

/** One page of the workflows of the caller's visible projects, optionally of one project. */
export function workflowsPage(db: Executor, principal: Principal, filters: { project?: number }, page: PageRequest) {
  return paginate(visibleWorkflows(db, principal, filters), page, {
    idColumn: 'w.id',
    orderable: {
      id: 'w.id',
      project: 'w.project_id',
      name: 'w.name',
      created_at: 'w.created_at',
      updated_at: 'w.updated_at',
    },
    defaultOrdering: 'project',
  });
}

export type WorkflowRow = NonNullable<Awaited<ReturnType<typeof findVisibleWorkflow>>>;

export function findVisibleWorkflow(db: Executor, principal: Principal, id: number) {
  return visibleWorkflows(db, principal).where('w.id', '=', id).executeTakeFirst();
}

export function insertWorkflow(
  db: Executor,
  { at, ...values }: { project_id: number; name: string; description: string; at: string },
): Promise<number> {
  return insertWithTimestamps(db, 'workflows', values, at);
}

export async function updateWorkflowFields(
  db: Executor,
  id: number,
  set: { name?: string; description?: string },
  at: string,
): Promise<void> {
  await db
    .updateTable('workflows')
    .set({ ...set, updated_at: at })
    .where('id', '=', id)
    .execute();
}

/** Marks workflows as changed (a workflow's JSON embeds its transitions and its `active` flag). */
export async function touchWorkflows(db: Executor, ids: number[], at: string): Promise<void> {
  await db.updateTable('workflows').set({ updated_at: at }).where('id', 'in', ids).execute();
}

export async function activeWorkflowOf(db: Executor, projectId: number): Promise<number | null> {
  const row = await db
    .selectFrom('projects')
    .select('workflow_id')
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow();
  return row.workflow_id;
}

export async function setActiveWorkflow(
  db: Executor,
  projectId: number,
  workflowId: number,
  at: string,
): Promise<void> {
  await db
    .updateTable('projects')
    .set({ workflow_id: workflowId, updated_at: at })
    .where('id', '=', projectId)
    .execute();
}

/** Deletes the workflow with its transitions. */
export async function deleteWorkflowWithTransitions(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('transitions').where('workflow_id', '=', id).execute();
  await db.deleteFrom('workflows').where('id', '=', id).execute();
}
