import type { AppContext } from '../../context.ts';
import { type BeforeCommit, transactionWith } from '../../db/before-commit.ts';
import { type Executor, isUniqueViolation } from '../../db/database.ts';
import { ApiError, invalid, notFound } from '../../http/errors.ts';
import { type PageRequest } from '../../http/pagination.ts';
import { paginate } from '../../db/paginate.ts';
import { removeStoredFiles, storageNamesOf } from '../attachments/attachment.files.ts';
import type { Principal } from '../auth/principal.ts';
import { authorize, WORKSPACE } from '../../policy/index.ts';
import { provisionProjectDefaults } from '../workflows/defaults.ts';
import { presentProject } from './projects.presenter.ts';
import { findNamedId, findVisibleProject, selectVisibleProjects } from './projects.repository.ts';

export interface ProjectCreate {
  name: string;
  key: string;
  description?: string;
}

export interface ProjectChanges {
  name?: string;
  key?: string;
  description?: string;
  default_status?: string;
  default_task_type?: string;
  default_priority?: string;
}

const ORDERABLE = { id: 'p.id', key: 'p.key', name: 'p.name', created_at: 'p.created_at', updated_at: 'p.updated_at' };

export async function listProjects(ctx: AppContext, principal: Principal, page: PageRequest) {
  const { rows, pagination } = await paginate(selectVisibleProjects(ctx.db, principal), page, {
    idColumn: 'p.id',
    orderable: ORDERABLE,
    defaultOrdering: 'key',
  });
  return { data: rows.map(presentProject), pagination };
}

export async function getProject(ctx: AppContext, principal: Principal, id: number) {
  return visibleProject(ctx.db, principal, id);
}

async function visibleProject(db: Executor, principal: Principal, id: number) {
  const row = await findVisibleProject(db, principal, id);
  if (!row) throw notFound('Project');
  return presentProject(row);
}

export type ProjectJson = ReturnType<typeof presentProject>;

export async function createProject(ctx: AppContext, principal: Principal, input: ProjectCreate, beforeCommit?: BeforeCommit<ProjectJson>): Promise<ProjectJson> {
  authorize(principal, 'project.create', WORKSPACE);
  const now = ctx.clock.nowIso();
  try {
    return await transactionWith(ctx.db, async (trx) => {
      const project = await trx
        .insertInto('projects')
        .values({
          organization_id: principal.organizationId,
          key: input.key,
          name: input.name,
          description: input.description ?? '',
          task_counter: 0,
          created_by: principal.userId,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('project_memberships')
        .values({ project_id: project.id, user_id: principal.userId, role: 'admin', created_at: now, updated_at: now })
        .execute();
      await provisionProjectDefaults(trx, project.id, now);
      return visibleProject(trx, principal, project.id);
    }, beforeCommit);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ApiError('ALREADY_EXISTS', `A project with key ${input.key} already exists in this workspace.`, { field: 'key' });
    }
    throw error;
  }
}

/** PUT replaces the writable fields (omitted description becomes empty); PATCH changes only what is sent. */
export async function updateProject(ctx: AppContext, principal: Principal, id: number, changes: ProjectChanges, mode: 'put' | 'patch') {
  const current = await findVisibleProject(ctx.db, principal, id);
  if (!current) throw notFound('Project');
  authorize(principal, 'project.administer', { kind: 'project', project: current }, 'the project');
  if (changes.key !== undefined && changes.key !== current.key) {
    throw invalid({ key: 'is immutable after creation' }, 'A project key cannot be changed.');
  }

  const set: { name?: string; description?: string; default_status_id?: number; default_task_type_id?: number; default_priority_id?: number } = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.description !== undefined) set.description = changes.description;
  else if (mode === 'put') set.description = '';

  const badFields: Record<string, string> = {};
  const defaults = [
    ['default_status', 'statuses', 'default_status_id'],
    ['default_task_type', 'task_types', 'default_task_type_id'],
    ['default_priority', 'priorities', 'default_priority_id'],
  ] as const;
  for (const [field, table, column] of defaults) {
    const name = changes[field];
    if (name === undefined) continue;
    const found = await findNamedId(ctx.db, table, id, name);
    if (found) set[column] = found.id;
    else badFields[field] = `"${name}" is not one of this project's ${table.replace('_', ' ')}`;
  }
  if (Object.keys(badFields).length) throw invalid(badFields);

  await ctx.db.updateTable('projects').set({ ...set, updated_at: ctx.clock.nowIso() }).where('id', '=', id).execute();
  return getProject(ctx, principal, id);
}

/**
 * Deleting a project deletes everything in it (cascading foreign keys, one transaction): no
 * orphaned rows remain, and the files of its attachments are removed once that has committed.
 * It is irreversible, so only project admins may do it.
 */
export async function deleteProject(ctx: AppContext, principal: Principal, id: number): Promise<void> {
  const current = await findVisibleProject(ctx.db, principal, id);
  if (!current) throw notFound('Project');
  authorize(principal, 'project.administer', { kind: 'project', project: current }, 'the project');
  const files = await ctx.db.transaction().execute(async (trx) => {
    // PostgreSQL: locking the project's tasks waits out any upload still writing its row (uploads
    // lock their task), so the list below misses no file. Project row first, then tasks: the
    // order every task write uses, so this cannot deadlock with them.
    if (ctx.dialect === 'postgres') {
      await trx.selectFrom('projects').select('id').where('id', '=', id).forUpdate().execute();
      await trx.selectFrom('tasks').select('id').where('project_id', '=', id).forUpdate().execute();
    }
    const names = await storageNamesOf(trx, { projectId: id });
    await trx.deleteFrom('projects').where('id', '=', id).execute();
    return names;
  });
  await removeStoredFiles(ctx, files);
}
