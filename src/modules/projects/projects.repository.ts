import type { Dialect, Executor } from '../../db/database.ts';
import type { EstimateUnit } from '../../db/schema.ts';
import { insertWithTimestamps } from '../../db/insert-with-timestamps.ts';
import { paginate } from '../../db/paginate.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { visibleProjects } from '../../policy/visibility.repository.ts';

/** One page of the visible projects, by key unless the caller orders them otherwise. */
export function visibleProjectsPage(db: Executor, principal: Principal, page: PageRequest) {
  return paginate(selectVisibleProjects(db, principal), page, {
    idColumn: 'p.id',
    orderable: { id: 'p.id', key: 'p.key', name: 'p.name', created_at: 'p.created_at', updated_at: 'p.updated_at' },
    defaultOrdering: 'key',
  });
}

/** Visible projects with their defaults resolved to names and the caller's role. */
function selectVisibleProjects(db: Executor, principal: Principal) {
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
      'p.estimate_unit',
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

/** A project of the workspace by key, visible or not (the operator CLI's view). */
export function findProjectByKey(db: Executor, organizationId: number, key: string) {
  return db
    .selectFrom('projects')
    .select(['id', 'key'])
    .where('organization_id', '=', organizationId)
    .where('key', '=', key)
    .executeTakeFirst();
}

export function findNamedId(
  db: Executor,
  table: 'statuses' | 'task_types' | 'priorities',
  projectId: number,
  name: string,
) {
  return db
    .selectFrom(table)
    .select('id')
    .where('project_id', '=', projectId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function projectHasTasks(db: Executor, projectId: number): Promise<boolean> {
  return (
    (await db.selectFrom('tasks').select('id').where('project_id', '=', projectId).limit(1).executeTakeFirst()) !==
    undefined
  );
}

export interface NewProject {
  organization_id: number;
  key: string;
  name: string;
  description: string;
  created_by: number;
  at: string;
}

export function insertProject(db: Executor, { at, ...values }: NewProject): Promise<number> {
  return insertWithTimestamps(db, 'projects', { ...values, task_counter: 0 }, at);
}

export interface ProjectSettings {
  name?: string;
  description?: string;
  default_status_id?: number;
  default_task_type_id?: number;
  default_priority_id?: number;
  estimate_unit?: EstimateUnit;
}

export async function updateProjectSettings(db: Executor, id: number, set: ProjectSettings, at: string): Promise<void> {
  await db
    .updateTable('projects')
    .set({ ...set, updated_at: at })
    .where('id', '=', id)
    .execute();
}

export async function deleteProjectRow(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('projects').where('id', '=', id).execute();
}

/**
 * Serializes changes to one project's configuration (status order, active workflow) for the
 * rest of the transaction. PostgreSQL takes a row lock on the project; NO KEY UPDATE so that
 * inserting tasks (whose foreign key only needs KEY SHARE on the project) is not held up.
 * SQLite needs nothing: Kysely runs every query of the process over its one connection, so a
 * transaction there is already exclusive.
 */
export async function lockProject(db: Executor, dialect: Dialect, projectId: number): Promise<void> {
  if (dialect !== 'postgres') return;
  await db.selectFrom('projects').select('id').where('id', '=', projectId).forNoKeyUpdate().execute();
}

/**
 * As lockProject, and on SQLite takes the database's write lock at once (a write that changes
 * nothing): a transaction in another process then waits here, instead of deciding from a
 * snapshot it could no longer write over. For decisions that read before they write, such as
 * "a project keeps one admin".
 */
export async function lockProjectForDecision(db: Executor, dialect: Dialect, projectId: number): Promise<void> {
  if (dialect === 'postgres') return lockProject(db, dialect, projectId);
  await db
    .updateTable('projects')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', projectId)
    .execute();
}

/**
 * Before deleting a project, PostgreSQL: locking its tasks waits out any upload still writing
 * its row (uploads lock their task), so the list of its files misses none. Project row first,
 * then tasks: the order every task write uses, so this cannot deadlock with them. SQLite's one
 * writer needs nothing.
 */
export async function lockProjectWithTasks(db: Executor, dialect: Dialect, projectId: number): Promise<void> {
  if (dialect !== 'postgres') return;
  await db.selectFrom('projects').select('id').where('id', '=', projectId).forUpdate().execute();
  await db.selectFrom('tasks').select('id').where('project_id', '=', projectId).forUpdate().execute();
}
