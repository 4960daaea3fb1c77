/**
 * Scheduled events, emitted with `source: "scheduler"` and recorded in the task's activity
 * (docs/api/webhooks.md, "Scheduled events"):
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
import type { AppContext } from '../context.ts';
import { isoFromMs } from '../clock.ts';
import type { Executor } from '../db/database.ts';
import { inTransaction } from '../db/unit-of-work.ts';
import { recordEvent, schedulerOrigin } from '../events/record-event.ts';
import { recordActivities } from '../modules/activity/activity.repository.ts';
import * as repo from './scheduler.repository.ts';
import { notifyAboutTask } from '../modules/notifications/notify.service.ts';

const DAY_MS = 86_400_000;

function taskSummary(task: repo.ScheduledTaskRow) {
  return {
    key: task.key,
    title: task.title,
    project: task.project_key,
    status: task.status,
    assignee: task.assignee_id,
    due_date: task.due_date,
  };
}

/** In one transaction: claims the notice (false if another worker has it), writes the activity row and the event. */
async function emit(
  ctx: AppContext,
  task: repo.ScheduledTaskRow,
  claim: (db: Executor, now: string) => Promise<boolean>,
  event: {
    type: 'task.due_soon' | 'task.escalated';
    action: string;
    field: string;
    value: unknown;
    data: Record<string, unknown>;
  },
): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const now = tx.clock.nowIso();
    if (!(await claim(tx.db, now))) return false;
    await recordActivities(tx.db, [
      {
        task_id: task.id,
        actor_id: null,
        action: event.action,
        field: event.field,
        from_value: null,
        to_value: JSON.stringify(event.value),
        created_at: now,
      },
    ]);
    await recordEvent(tx.db, {
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
  const tasks = await repo.tasksDueSoon(ctx.db, { today, horizon }, limit);

  let emitted = 0;
  for (const task of tasks) {
    const dueDate = task.due_date!;
    const done = await emit(ctx, task, (db, now) => repo.claimDueNotice(db, task.id, dueDate, now), {
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
  const tasks = await repo.stuckTasks(ctx.db, threshold, limit);

  let emitted = 0;
  for (const task of tasks) {
    const done = await emit(ctx, task, (db, now) => repo.claimEscalation(db, task.id, task.updated_at, now), {
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

/**
 * `overdue` notifications (docs/api/notifications.md): once per task per due date, to the
 * assignee of an open task whose due date (the end of that day, UTC) has passed. Moving the due
 * date re-arms it.
 */
export async function notifyOverdue(ctx: AppContext, limit = 200): Promise<number> {
  const today = isoFromMs(ctx.clock.nowMs()).slice(0, 10);
  const tasks = await repo.tasksOverdue(ctx.db, today, limit);
  let notified = 0;
  for (const task of tasks) {
    const dueDate = task.due_date!;
    const done = await inTransaction(ctx, async (tx) => {
      if (!(await repo.claimOverdueNotice(tx.db, task.id, dueDate, tx.clock.nowIso()))) return false;
      await notifyAboutTask(
        tx,
        tx.db,
        schedulerOrigin({ id: task.organization_id, slug: task.organization_slug, name: task.organization_name }),
        task,
        task.assignee_id!,
        'overdue',
        `${task.key} “${task.title}” was due on ${dueDate}`,
      );
      return true;
    });
    if (done) notified += 1;
  }
  return notified;
}
