import type { TestHarness } from './harness.ts';

/**
 * Inserts `length` tasks into the project and links them into one chain (each blocks the next)
 * directly in the database, in batches: building a 10,000-task graph through the API would take
 * minutes. Returns the keys in chain order. Shared by the link tests and bench/links-cycle.ts.
 */
export async function seedBlockingChain(h: TestHarness, projectKey: string, length: number): Promise<string[]> {
  const db = h.ctx.db;
  const project = await db
    .selectFrom('projects')
    .select(['id', 'task_counter', 'default_status_id', 'default_task_type_id', 'default_priority_id'])
    .where('key', '=', projectKey)
    .executeTakeFirstOrThrow();
  const now = h.clock.nowIso();
  const first = project.task_counter + 1;
  const ids: number[] = [];
  const keys: string[] = [];
  const BATCH = 1000;
  for (let start = 0; start < length; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, length - start) }, (_, i) => {
      const number = first + start + i;
      return {
        project_id: project.id,
        number,
        key: `${projectKey}-${number}`,
        title: `Chain ${start + i + 1}`,
        description: '',
        task_type_id: project.default_task_type_id!,
        priority_id: project.default_priority_id!,
        status_id: project.default_status_id!,
        assignee_id: null,
        parent_id: null,
        due_date: null,
        milestone_id: null,
        sprint_id: null,
        version: 1,
        created_by: null,
        created_at: now,
        updated_at: now,
      };
    });
    const inserted = await db.insertInto('tasks').values(rows).returning(['id', 'key']).execute();
    ids.push(...inserted.map((r) => r.id));
    keys.push(...inserted.map((r) => r.key));
  }
  await db.updateTable('projects').set({ task_counter: first + length - 1 }).where('id', '=', project.id).execute();
  for (let start = 0; start < length - 1; start += BATCH) {
    const rows = ids.slice(start, Math.min(start + BATCH, length - 1)).map((id, i) => ({
      from_task_id: id,
      to_task_id: ids[start + i + 1]!,
      type: 'blocks' as const,
      created_by: null,
      created_at: now,
    }));
    await db.insertInto('task_links').values(rows).execute();
  }
  return keys;
}
