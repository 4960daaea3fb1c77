import type { AppContext } from '../../context.ts';
import { type Executor, isUniqueViolation } from '../../db/database.ts';
import type { EstimateUnit } from '../../db/schema.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { ApiError, foundOr404, invalid } from '../../http/errors.ts';
import type { PageRequest } from '../../http/pagination.ts';
import { removeStoredFiles } from '../attachments/attachment.files.ts';
import { storageNamesOf } from '../attachments/attachment.repository.ts';
import type { Principal } from '../../identity/principal.ts';
import type { Caller } from '../../identity/caller.ts';
import { recordEvent } from '../../events/record-event.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { authorize, WORKSPACE } from '../../policy/index.ts';
import { visibleOne } from '../../policy/visible-one.ts';
import { provisionProjectDefaults } from '../workflows/defaults.ts';
import { insertMembership } from './memberships.repository.ts';
import { recordMembershipChangedEvent } from './memberships.service.ts';
import { presentProject } from './projects.presenter.ts';
import * as repo from './projects.repository.ts';

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
  estimate_unit?: EstimateUnit;
}

export async function listProjects(ctx: AppContext, principal: Principal, page: PageRequest) {
  const { rows, pagination } = await repo.visibleProjectsPage(ctx.db, principal, page);
  return { data: rows.map((row) => presentProject(row)), pagination };
}

export const getProject = visibleOne('Project', repo.findVisibleProject, presentProject).read;

export type ProjectJson = ReturnType<typeof presentProject>;

/** A project as its events carry it: without `role`, which is the reader's. */
function eventProject({ role: _reader, ...project }: ProjectJson) {
  return project;
}

/**
 * The creator becomes the project's admin (announced as membership.changed, like every other
 * membership change); the project starts with the default statuses, workflow, types and priorities.
 */
export async function createProject(tx: Tx, caller: Caller, input: ProjectCreate): Promise<ProjectJson> {
  const { principal } = caller;
  authorize(principal, 'project.create', WORKSPACE);
  const now = tx.clock.nowIso();
  let id: number;
  try {
    id = await repo.insertProject(tx.db, {
      organization_id: principal.organizationId,
      key: input.key,
      name: input.name,
      description: input.description ?? '',
      created_by: principal.userId,
      at: now,
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ApiError('ALREADY_EXISTS', `A project with key ${input.key} already exists in this workspace.`, {
        field: 'key',
      });
    }
    throw error;
  }
  const membershipId = await insertMembership(tx.db, {
    project_id: id,
    user_id: principal.userId,
    role: 'admin',
    at: now,
  });
  await provisionProjectDefaults(tx.db, id, now);
  const project = await getProject(tx, principal, id);
  await recordEvent(tx.db, {
    type: 'project.created',
    origin: caller.origin,
    projectId: id,
    occurredAt: now,
    data: { project: eventProject(project) },
  });
  await recordMembershipChangedEvent(
    tx,
    caller.origin,
    { id: membershipId, project: id, project_key: project.key, user: principal.userId, user_name: principal.userName },
    'added',
    null,
    'admin',
  );
  await recordAudit(tx, {
    organizationId: principal.organizationId,
    actor: principal,
    action: 'project.created',
    target: projectTarget(project),
    projectId: id,
    after: { key: project.key, name: project.name },
  });
  return project;
}

/** A project as an audit record names it. */
const projectTarget = (project: { id: number; key: string; name: string }) => ({
  type: 'project' as const,
  id: project.id,
  label: `${project.key} ${project.name}`,
});

const DEFAULT_REFERENCES = [
  ['default_status', 'statuses', 'default_status_id'],
  ['default_task_type', 'task_types', 'default_task_type_id'],
  ['default_priority', 'priorities', 'default_priority_id'],
] as const;

/** The project's settings a change asks for; names of defaults resolved to ids (400 for a name the project lacks). */
async function settingsOf(
  db: Executor,
  id: number,
  changes: ProjectChanges,
  mode: 'put' | 'patch',
): Promise<repo.ProjectSettings> {
  const set: repo.ProjectSettings = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.description !== undefined) set.description = changes.description;
  else if (mode === 'put') set.description = '';
  // Changing the unit keeps the numbers: they are the team's to re-estimate.
  if (changes.estimate_unit !== undefined) set.estimate_unit = changes.estimate_unit;

  const badFields: Record<string, string> = {};
  for (const [field, table, column] of DEFAULT_REFERENCES) {
    const name = changes[field];
    if (name === undefined) continue;
    const found = await repo.findNamedId(db, table, id, name);
    if (found) set[column] = found.id;
    else badFields[field] = `"${name}" is not one of this project's ${table.replace('_', ' ')}`;
  }
  if (Object.keys(badFields).length) throw invalid(badFields);
  return set;
}

/** PUT replaces the writable fields (omitted description becomes empty); PATCH changes only what is sent. */
export async function updateProject(
  tx: Tx,
  caller: Caller,
  id: number,
  changes: ProjectChanges,
  mode: 'put' | 'patch',
) {
  const { principal } = caller;
  const current = await foundOr404(repo.findVisibleProject(tx.db, principal, id), 'Project');
  authorize(principal, 'project.administer', { kind: 'project', project: current }, 'the project');
  if (changes.key !== undefined && changes.key !== current.key) {
    throw invalid({ key: 'is immutable after creation' }, 'A project key cannot be changed.');
  }
  const now = tx.clock.nowIso();
  await repo.updateProjectSettings(tx.db, id, await settingsOf(tx.db, id, changes, mode), now);
  const before = eventProject(presentProject(current));
  const project = await getProject(tx, principal, id);
  const after = eventProject(project);
  const changed: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of Object.keys(after) as Array<keyof typeof after>) {
    if (field !== 'updated_at' && before[field] !== after[field])
      changed[field] = { from: before[field], to: after[field] };
  }
  if (Object.keys(changed).length > 0) {
    await recordEvent(tx.db, {
      type: 'project.updated',
      origin: caller.origin,
      projectId: id,
      occurredAt: now,
      data: { project: after, changes: changed },
    });
    await recordAudit(tx, {
      organizationId: principal.organizationId,
      actor: principal,
      action: 'project.updated',
      target: projectTarget(project),
      projectId: id,
      before: Object.fromEntries(Object.entries(changed).map(([field, change]) => [field, change.from])),
      after: Object.fromEntries(Object.entries(changed).map(([field, change]) => [field, change.to])),
    });
  }
  return project;
}

/**
 * Deleting a project deletes everything in it (cascading foreign keys, one transaction): no
 * orphaned rows remain, and the files of its attachments are removed once that has committed.
 * It is irreversible, so only project admins may do it.
 */
export async function deleteProject(tx: Tx, principal: Principal, id: number): Promise<void> {
  const current = await foundOr404(repo.findVisibleProject(tx.db, principal, id), 'Project');
  authorize(principal, 'project.administer', { kind: 'project', project: current }, 'the project');
  await repo.lockProjectWithTasks(tx.db, tx.dialect, id);
  const files = await storageNamesOf(tx.db, { projectId: id });
  await repo.deleteProjectRow(tx.db, id);
  // The audit log keeps no foreign key to projects: this record, and the project's earlier ones, stay.
  await recordAudit(tx, {
    organizationId: principal.organizationId,
    actor: principal,
    action: 'project.deleted',
    target: projectTarget(current),
    projectId: id,
    before: { key: current.key, name: current.name },
  });
  tx.afterCommit(() => removeStoredFiles(tx, files));
}
