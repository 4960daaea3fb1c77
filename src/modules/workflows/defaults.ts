import type { Executor } from '../../db/database.ts';
import type { StatusCategory } from '../../db/schema.ts';
import { insertOption, type OptionTable, setProjectDefaults } from './project-options.repository.ts';
import { insertStatus } from './statuses.repository.ts';
import { insertTransitions } from './transitions.repository.ts';
import { insertWorkflow } from './workflows.repository.ts';

/** The name a transition gets when none is given, and keeps following while it is unchanged. */
export const defaultTransitionName = (from: string, to: string) => `${from} → ${to}`;

/**
 * What a new project is provisioned with (docs/domain/projects-and-workflows.md). Clients read
 * these back through the statuses, transitions, task-types and priorities endpoints rather
 * than assuming them.
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

/** Inserts the defaults and points the project at them, inside the caller's unit of work. */
export async function provisionProjectDefaults(db: Executor, projectId: number, now: string): Promise<void> {
  const statusIds = new Map<string, number>();
  for (const [position, status] of DEFAULT_STATUSES.entries()) {
    statusIds.set(
      status.name,
      await insertStatus(db, {
        project_id: projectId,
        name: status.name,
        category: status.category,
        position,
        at: now,
      }),
    );
  }
  const workflowId = await insertWorkflow(db, {
    project_id: projectId,
    name: 'Default workflow',
    description: '',
    at: now,
  });
  const transitions = DEFAULT_TRANSITIONS.map(([from, to]) => ({
    workflow_id: workflowId,
    from_status_id: statusIds.get(from)!,
    to_status_id: statusIds.get(to)!,
    name: defaultTransitionName(from, to),
  }));
  await insertTransitions(db, transitions, now);
  const typeIds = await insertOptions(db, 'task_types', projectId, DEFAULT_TASK_TYPES);
  const priorityIds = await insertOptions(db, 'priorities', projectId, DEFAULT_PRIORITIES);
  await setProjectDefaults(db, projectId, {
    workflow_id: workflowId,
    default_status_id: statusIds.get(DEFAULT_STATUSES[0]!.name)!,
    default_task_type_id: typeIds.get(DEFAULT_TASK_TYPE)!,
    default_priority_id: priorityIds.get(DEFAULT_PRIORITY)!,
  });
}

async function insertOptions(
  db: Executor,
  table: OptionTable,
  projectId: number,
  names: string[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const [position, name] of names.entries())
    ids.set(name, await insertOption(db, table, { project_id: projectId, name, position }));
  return ids;
}
