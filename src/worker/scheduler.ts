/**
 * Scheduled events (issue 6 item 7), emitted with `source: "scheduler"` and recorded in the
 * task's activity:
 * - `task.due_soon`, once per task per due date. A due date means the end of that day (UTC);
 *   the event fires when that moment is within DUE_SOON_WINDOW_HOURS (default 24), for tasks
 *   not in a done-category status and not already past due. Moving the due date re-arms it.
 * - `task.escalated`, once per stuck episode: a task in an in_progress-category status that
 *   has not changed for ESCALATE_AFTER_DAYS (default 3). Any later change to the task starts a
 *   new episode, which can be escalated again.
 * The bookkeeping rows (unique per task and date, or task and episode start) are inserted
 * with ON CONFLICT DO NOTHING in the transaction that writes the activity and the event, so
 * several workers never emit one twice.
 */
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { isoFromMs } from '../clock.ts';
import type { Executor } from '../db/database.ts';
import { type ActionOrigin, recordEvent } from '../events/record-event.ts';

const DAY_MS = 86_400_000;

/** The actor of scheduled events: no user caused them (id 0 is never a user id). */
export const SCHEDULER_ACTOR = { id: 0, email: '', name: 'Scheduler' } as const;

function schedulerOrigin(organization: ActionOrigin['organization']): ActionOrigin {
  return { organization, actor: { ...SCHEDULER_ACTOR }, source: 'scheduler', correlationId: `sched_${randomUUID().replaceAll('-', '')}` };
}

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

type TaskRow = Awaited<ReturnType<ReturnType<typeof selectTasks>['executeTakeFirstOrThrow']>>;

function taskSummary(task: TaskRow) {
  return { key: task.key, title: task.title, project: task.project_key, status: task.status, assignee: task.assignee_id, due_date: task.due_date };
}

async function emit(
  ctx: AppContext,
  task: TaskRow,
  claim: (trx: Executor, now: string) => Promise<boolean>,
  event: { type: 'task.due_soon' | 'task.escalated'; action: string; field: string; value: unknown; data: Record<string, unknown> },
): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.nowIso();
    if (!(await claim(trx, now))) return false;
    await trx
      .insertInto('activities')
      .values({ task_id: task.id, actor_id: null, action: event.action, field: event.field, from_value: null, to_value: JSON.stringify(event.value), created_at: now })
      .execute();
    await recordEvent(trx, {
      type: event.type,
      origin: schedulerOrigin({ id: task.organization_id, slug: task.organization_slug, name: task.organization_name }),
      projectId: task.project_id,
      occurredAt: now,
      data: event.data,
    });
    return true;
  });
}

export async function emitDueSoon(ctx: AppContext, limit = 200): Promise<number> {
  const nowMs = ctx.clock.nowMs();
  const windowHours = ctx.config.scheduler.dueSoonWindowHours;
  const today = isoFromMs(nowMs).slice(0, 10);
  // End of day D is within the window  <=>  D < the calendar day of (now + window).
  const horizon = isoFromMs(nowMs + windowHours * 3_600_000).slice(0, 10);
  const tasks = await selectTasks(ctx.db)
    .where('t.due_date', 'is not', null)
    .where('t.due_date', '>=', today)
    .where('t.due_date', '<', horizon)
    .where('s.category', '!=', 'done')
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('task_due_notices as n').select('n.id').whereRef('n.task_id', '=', 't.id').whereRef('n.due_date', '=', 't.due_date'))),
    )
    .orderBy('t.id')
    .limit(limit)
    .execute();

  let emitted = 0;
  for (const task of tasks) {
    const dueDate = task.due_date!;
    const claim = async (trx: Executor, now: string) =>
      (await trx
        .insertInto('task_due_notices')
        .values({ task_id: task.id, due_date: dueDate, created_at: now })
        .onConflict((oc) => oc.columns(['task_id', 'due_date']).doNothing())
        .returning('id')
        .executeTakeFirst()) !== undefined;
    const done = await emit(ctx, task, claim, {
      type: 'task.due_soon',
      action: 'due_soon',
      field: 'due_date',
      value: dueDate,
      data: { task: taskSummary(task), due_date: dueDate, window_hours: windowHours },
    });
    if (done) emitted += 1;
  }
  return emitted;
}

export async function escalateStuckTasks(ctx: AppContext, limit = 200): Promise<number> {
  const days = ctx.config.scheduler.escalateAfterDays;
  const threshold = isoFromMs(ctx.clock.nowMs() - days * DAY_MS);
  const tasks = await selectTasks(ctx.db)
    .where('s.category', '=', 'in_progress')
    .where('t.updated_at', '<=', threshold)
    .where((eb) =>
      eb.not(
        eb.exists(eb.selectFrom('task_escalations as x').select('x.id').whereRef('x.task_id', '=', 't.id').whereRef('x.stuck_since', '=', 't.updated_at')),
      ),
    )
    .orderBy('t.id')
    .limit(limit)
    .execute();

  let emitted = 0;
  for (const task of tasks) {
    const claim = async (trx: Executor, now: string) =>
      (await trx
        .insertInto('task_escalations')
        .values({ task_id: task.id, stuck_since: task.updated_at, created_at: now })
        .onConflict((oc) => oc.columns(['task_id', 'stuck_since']).doNothing())
        .returning('id')
        .executeTakeFirst()) !== undefined;
    const done = await emit(ctx, task, claim, {
      type: 'task.escalated',
      action: 'escalated',
      field: 'status',
      value: task.status,
      data: { task: taskSummary(task), status: task.status, stuck_since: task.updated_at, stuck_days: days },
    });
    if (done) emitted += 1;
  }
  return emitted;
}
