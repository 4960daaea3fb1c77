import type { Executor } from '../db/database.ts';
import { ORGANIZATION_COLUMNS } from '../identity/auth.repository.ts';
import { selectTaskRows } from '../modules/tasks/task.repository.ts';

// The scheduler's SQL: tasks that are due soon or stuck, and the rows that make each notice fire once.

/** Task rows as the API reads them, with the organization that a notice's origin names. */
function selectTasks(db: Executor) {
  return selectTaskRows(db).innerJoin('organizations as o', 'o.id', 'p.organization_id').select(ORGANIZATION_COLUMNS);
}

export type ScheduledTaskRow = Awaited<ReturnType<typeof tasksDueSoon>>[number];

/** Open tasks due on a day in [today, horizon) whose due date has no notice yet, by id. */
export function tasksDueSoon(db: Executor, range: { today: string; horizon: string }, limit: number) {
  return selectTasks(db)
    .where('t.due_date', 'is not', null)
    .where('t.due_date', '>=', range.today)
    .where('t.due_date', '<', range.horizon)
    .where('s.category', '!=', 'done')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('task_due_notices as n')
            .select('n.id')
            .whereRef('n.task_id', '=', 't.id')
            .whereRef('n.due_date', '=', 't.due_date'),
        ),
      ),
    )
    .orderBy('t.id')
    .limit(limit)
    .execute();
}

/** Open assigned tasks whose due date is before `today` and has no overdue notice yet, by id. */
export function tasksOverdue(db: Executor, today: string, limit: number) {
  return selectTasks(db)
    .where('t.due_date', 'is not', null)
    .where('t.due_date', '<', today)
    .where('t.assignee_id', 'is not', null)
    .where('s.category', '!=', 'done')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('task_overdue_notices as n')
            .select('n.id')
            .whereRef('n.task_id', '=', 't.id')
            .whereRef('n.due_date', '=', 't.due_date'),
        ),
      ),
    )
    .orderBy('t.id')
    .limit(limit)
    .execute();
}

/** Records the overdue notice of a task's due date; false when one exists already. */
export function claimOverdueNotice(db: Executor, taskId: number, dueDate: string, now: string): Promise<boolean> {
  return insertedOnce(
    db
      .insertInto('task_overdue_notices')
      .values({ task_id: taskId, due_date: dueDate, created_at: now })
      .onConflict((oc) => oc.columns(['task_id', 'due_date']).doNothing())
      .returning('id'),
  );
}

/** Tasks in progress unchanged since `threshold` whose stuck episode was not escalated yet, by id. */
export function stuckTasks(db: Executor, threshold: string, limit: number) {
  return selectTasks(db)
    .where('s.category', '=', 'in_progress')
    .where('t.updated_at', '<=', threshold)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('task_escalations as x')
            .select('x.id')
            .whereRef('x.task_id', '=', 't.id')
            .whereRef('x.stuck_since', '=', 't.updated_at'),
        ),
      ),
    )
    .orderBy('t.id')
    .limit(limit)
    .execute();
}

/** Records the due-soon notice of a task's due date; false when one exists already (another worker sent it). */
export function claimDueNotice(db: Executor, taskId: number, dueDate: string, now: string): Promise<boolean> {
  return insertedOnce(
    db
      .insertInto('task_due_notices')
      .values({ task_id: taskId, due_date: dueDate, created_at: now })
      .onConflict((oc) => oc.columns(['task_id', 'due_date']).doNothing())
      .returning('id'),
  );
}

/** Records the escalation of a stuck episode; false when one exists already. */
export function claimEscalation(db: Executor, taskId: number, stuckSince: string, now: string): Promise<boolean> {
  return insertedOnce(
    db
      .insertInto('task_escalations')
      .values({ task_id: taskId, stuck_since: stuckSince, created_at: now })
      .onConflict((oc) => oc.columns(['task_id', 'stuck_since']).doNothing())
      .returning('id'),
  );
}

/** True when this call inserted the row (its insert does nothing when the row exists), so exactly one worker acts on it. */
async function insertedOnce(insert: { executeTakeFirst(): Promise<{ id: number } | undefined> }): Promise<boolean> {
  return (await insert.executeTakeFirst()) !== undefined;
}
