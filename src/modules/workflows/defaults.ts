import type { Trx } from '../../db/database.ts';
import type { StatusCategory } from '../../db/schema.ts';

/**
 * What a new project is provisioned with (spec 2 "Project"). Clients read these back through
 * the statuses, transitions, task-types and priorities endpoints rather than assuming them.
 */
export const DEFAULT_STATUSES: Array<{ name: string; category: StatusCategory }> = [
  { name: 'To Do', category: 'todo' },
  { name: 'In Progress', category: 'in_progress' },
  { name: 'In Review', category: 'in_progress' },
  { name: 'Done', category: 'done' },
];

/** Forward along the board, back one step, and reopen from Done. */
export const DEFAULT_TRANSITIONS: Array<[from: string, to: string]> = [
  ['To Do', 'In Progress'],
  ['In Progress', 'To Do'],
  ['In Progress', 'In Review'],
  ['In Progress', 'Done'],
  ['In Review', 'In Progress'],
  ['In Review', 'Done'],
  ['Done', 'To Do'],
];

export const DEFAULT_TASK_TYPES = ['Task', 'Bug', 'Story', 'Epic'];
export const DEFAULT_TASK_TYPE = 'Task';
export const DEFAULT_PRIORITIES = ['Low', 'Medium', 'High', 'Urgent'];
export const DEFAULT_PRIORITY = 'Medium';

/** Inserts the defaults and points the project at them, inside the caller's transaction. */
export async function provisionProjectDefaults(trx: Trx, projectId: number, now: string): Promise<void> {
  const statusIds = new Map<string, number>();
  for (const [position, status] of DEFAULT_STATUSES.entries()) {
    const row = await trx
      .insertInto('statuses')
      .values({ project_id: projectId, name: status.name, category: status.category, position, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    statusIds.set(status.name, row.id);
  }

  const workflow = await trx
    .insertInto('workflows')
    .values({ project_id: projectId, name: 'Default workflow', description: '', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('transitions')
    .values(
      DEFAULT_TRANSITIONS.map(([from, to]) => ({
        workflow_id: workflow.id,
        from_status_id: statusIds.get(from)!,
        to_status_id: statusIds.get(to)!,
        name: `${from} → ${to}`,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();

  const typeIds = await insertNamed(trx, 'task_types', projectId, DEFAULT_TASK_TYPES);
  const priorityIds = await insertNamed(trx, 'priorities', projectId, DEFAULT_PRIORITIES);

  await trx
    .updateTable('projects')
    .set({
      workflow_id: workflow.id,
      default_status_id: statusIds.get(DEFAULT_STATUSES[0]!.name)!,
      default_task_type_id: typeIds.get(DEFAULT_TASK_TYPE)!,
      default_priority_id: priorityIds.get(DEFAULT_PRIORITY)!,
    })
    .where('id', '=', projectId)
    .execute();
}

async function insertNamed(trx: Trx, table: 'task_types' | 'priorities', projectId: number, names: string[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const [position, name] of names.entries()) {
    const row = await trx.insertInto(table).values({ project_id: projectId, name, position }).returning('id').executeTakeFirstOrThrow();
    ids.set(name, row.id);
  }
  return ids;
}
