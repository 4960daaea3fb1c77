import type { TestHarness } from './harness.ts';

/**
 * Inserts a task row straight through the query builder, for tests of modules that must not
 * depend on the tasks API (status delete and reorder, planning deletes).
 */
export async function insertTask(
  h: TestHarness,
  projectId: number,
  fields: { status_id?: number; milestone_id?: number | null; sprint_id?: number | null; title?: string } = {},
): Promise<number> {
  const db = h.ctx.db;
  const project = await db
    .updateTable('projects')
    .set((eb) => ({ task_counter: eb('task_counter', '+', 1) }))
    .where('id', '=', projectId)
    .returning(['key', 'task_counter', 'default_status_id', 'default_task_type_id', 'default_priority_id'])
    .executeTakeFirstOrThrow();
  const now = h.clock.nowIso();
  const row = await db
    .insertInto('tasks')
    .values({
      project_id: projectId,
      number: project.task_counter,
      key: `${project.key}-${project.task_counter}`,
      title: fields.title ?? `Task ${project.task_counter}`,
      description: '',
      task_type_id: project.default_task_type_id!,
      priority_id: project.default_priority_id!,
      status_id: fields.status_id ?? project.default_status_id!,
      milestone_id: fields.milestone_id ?? null,
      sprint_id: fields.sprint_id ?? null,
      version: 1,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function taskRows(h: TestHarness, projectId: number) {
  return h.ctx.db.selectFrom('tasks').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
}
