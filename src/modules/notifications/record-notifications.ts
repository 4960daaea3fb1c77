import type { Executor } from '../../db/database.ts';
import { outboxInsert } from '../../events/outbox.repository.ts';
import { type ActionOrigin, outboxRowOf } from '../../events/record-event.ts';
import type { NotificationJson } from './notifications.schemas.ts';
import { insertNotifications, type NewNotification } from './notifications.repository.ts';

/** One notification to write, what caused it, and what its inbox entry names. */
export interface NotificationToRecord {
  row: NewNotification;
  origin: ActionOrigin;
  actor: NotificationJson['actor'];
  task: NotificationJson['task'];
}

/**
 * Rows per INSERT: a statement carries at most 65535 parameters on PostgreSQL, and one bulk
 * update followed by many people makes thousands of notifications at once.
 */
const ROWS_PER_INSERT = 1000;

function inParts<T>(rows: T[]): T[][] {
  const parts: T[][] = [];
  for (let from = 0; from < rows.length; from += ROWS_PER_INSERT) parts.push(rows.slice(from, from + ROWS_PER_INSERT));
  return parts;
}

/**
 * The one writer of notifications: inserts them, in the caller's transaction, and announces
 * each shown in the app (`in_app`, the default) with notification.created: the notification as
 * its recipient's inbox lists it, for that account alone (`recipient_id`), of the project it
 * concerns when it concerns one (a task's, a webhook endpoint's: so it stops when they leave
 * it). Nobody is notified of these
 * events (`notified_at` is set). Returns the notifications' ids, in order.
 */
export async function recordNotifications(
  db: Executor,
  notifications: NotificationToRecord[],
  now: string,
): Promise<number[]> {
  if (notifications.length === 0) return [];
  const ids: number[] = [];
  for (const part of inParts(notifications.map((n) => n.row))) ids.push(...(await insertNotifications(db, part)));
  const events = notifications.flatMap(({ row, origin, actor, task }, i) =>
    row.in_app === 0
      ? []
      : [
          {
            ...outboxRowOf({
              type: 'notification.created',
              origin,
              projectId: row.project_id ?? null,
              recipientId: row.user_id,
              occurredAt: row.created_at,
              data: {
                notification: {
                  id: ids[i]!,
                  reason: row.reason,
                  created_at: row.created_at,
                  read_at: null,
                  actor,
                  task,
                  comment: row.comment_id ?? null,
                  text: row.subject,
                },
              },
            }),
            notified_at: now,
          },
        ],
  );
  for (const part of inParts(events)) await outboxInsert(db, part).execute();
  return ids;
}
