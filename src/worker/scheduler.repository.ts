import type { Executor } from '../db/database.ts';

/** The scheduler's SQL: tasks that are due soon or stuck, and the rows that make each notice fire once. */
function selectTasks(db: Executor) {
  return db
    .selectFrom('tasks as t')
    .innerJoin('statuses as s', 's.id', 't.status_id')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .select([
      't.id',
      't.key',
      't.title',
      't.due_date',
      't.assignee_id',
      't.project_id',
      't.updated_at',
      's.name as status',
      'p.key as project_key',
      'o.id as organization_id',
      'o.slug as organization_slug',
      'o.name as organization_name',
    ]);
}

export type ScheduledTaskRow = Awaited<ReturnType<typeof tasksDueSoon>>[number];

/** Open tasks due on a day in [today, horizon) whose due date has no notice yet, by id. */
export function tasksDueSoon(db: Executor, range: { today: string; horizon: string }, limit: number) {
  return selectTasks(db)
    .where('t.due_date', 'is not', null)
    .where('t.due_date', '>=', range.today)
    .where('t.due_date', '<', range.horizon)
    .where('s.category', '!=', 'done')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('task_due_notices as n').select('n.id').whereRef('n.task_id', '=', 't.id').whereRef('n.due_date', '=', 't.due_date'))))
    .orderBy('t.id')
    .limit(limit)
    .execute();
}

/** Tasks in progress unchanged since `threshold` whose stuck episode was not escalated yet, by id. */
export function stuckTasks(db: Executor, threshold: string, limit: number) {
  return selectTasks(db)
    .where('s.category', '=', 'in_progress')
    .where('t.updated_at', '<=', threshold)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('task_escalations as x').select('x.id').whereRef('x.task_id', '=', 't.id').whereRef('x.stuck_since', '=', 't.updated_at'))))
    .orderBy('t.id')
    .limit(limit)
    .execute();
}

/** Records the due-soon notice of a task's due date; false when one exists already (another worker sent it). */
export async function claimDueNotice(db: Executor, taskId: number, dueDate: string, now: string): Promise<boolean> {
  const row = await db
    .insertInto('task_due_notices')
    .values({ task_id: taskId, due_date: dueDate, created_at: now })
    .onConflict((oc) => oc.columns(['task_id', 'due_date']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Records the escalation of a stuck episode; false when one exists already. */
export async function claimEscalation(db: Executor, taskId: number, stuckSince: string, now: string): Promise<boolean> {
  const row = await db
    .insertInto('task_escalations')
    .values({ task_id: taskId, stuck_since: stuckSince, created_at: now })
    .onConflict((oc) => oc.columns(['task_id', 'stuck_since']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
