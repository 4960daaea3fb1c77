import { sql } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * People are told (docs/api/notifications.md). The operators' `notifications` table becomes
 * everyone's inbox: each row gets the reason it came for, who caused it, the task (and
 * comment) it is about, whether it shows in the app, and its e-mail's schedule. Existing rows
 * (auto-disabled webhook endpoints) get the reason `endpoint_disabled`.
 *
 * The worker computes recipients from each committed outbox event once: `notified_at` marks
 * the events it has done. Events recorded before this migration are marked done, so an
 * upgrade does not notify anyone about the past.
 *
 * A new in-app notification reaches its recipient's live streams through a live_events row
 * that names the recipient (`recipient_id`), written by a trigger like every other live row.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await db.schema.alterTable('event_outbox').addColumn('notified_at', 'text').execute();
  await sql`UPDATE event_outbox SET notified_at = occurred_at`.execute(db);
  await db.schema
    .createIndex('event_outbox_unnotified_idx')
    .on('event_outbox')
    .column('id')
    .where(sql.ref('notified_at'), 'is', null)
    .execute();

  await db.schema
    .alterTable('notifications')
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`UPDATE notifications SET reason = 'endpoint_disabled' WHERE kind = 'webhook_endpoint_disabled'`.execute(db);
  await db.schema
    .alterTable('notifications')
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('notifications')
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    .execute();
  await db.schema
    .alterTable('notifications')
    .addColumn('task_id', 'integer', (c) => c.references('tasks.id').onDelete('cascade'))
    .execute();
  await db.schema
    .alterTable('notifications')
    .addColumn('comment_id', 'integer', (c) => c.references('comments.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('notifications')
    .addColumn('in_app', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('notifications').addColumn('email_due_at', 'text').execute();
  await db.schema
    .alterTable('notifications')
    .addColumn('email_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('notifications_user_idx').on('notifications').columns(['user_id', 'id']).execute();
  await db.schema
    .createIndex('notifications_email_due_idx')
    .on('notifications')
    .column('email_due_at')
    .where(sql.ref('email_due_at'), 'is not', null)
    .execute();
  await db.schema.createIndex('notifications_task_idx').on('notifications').column('task_id').execute();

  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('in_app', 'integer', (c) => c.notNull())
    .addColumn('email', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_preferences_pk', ['user_id', 'reason'])
    .execute();

  await db.schema.alterTable('live_events').addColumn('recipient_id', 'integer').execute();
  if (dialect === 'postgres') {
    await sql`CREATE FUNCTION live_notification() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO live_events (project_id, kind, action, task_key, recipient_id)
        VALUES (COALESCE(NEW.project_id, 0), 'notification',
          CASE WHEN TG_OP = 'INSERT' THEN 'created' ELSE 'read' END,
          (SELECT key FROM tasks WHERE id = NEW.task_id), NEW.user_id);
        RETURN NULL;
      END $$`.execute(db);
    await sql`CREATE TRIGGER notifications_live_insert AFTER INSERT ON notifications
      FOR EACH ROW WHEN (NEW.in_app = 1) EXECUTE FUNCTION live_notification()`.execute(db);
    await sql`CREATE TRIGGER notifications_live_read AFTER UPDATE OF read_at ON notifications
      FOR EACH ROW WHEN (NEW.in_app = 1 AND OLD.read_at IS DISTINCT FROM NEW.read_at) EXECUTE FUNCTION live_notification()`.execute(
      db,
    );
  } else {
    await sql`CREATE TRIGGER notifications_live_insert AFTER INSERT ON notifications WHEN NEW.in_app = 1 BEGIN
      INSERT INTO live_events (project_id, kind, action, task_key, recipient_id)
      VALUES (COALESCE(NEW.project_id, 0), 'notification', 'created',
        (SELECT key FROM tasks WHERE id = NEW.task_id), NEW.user_id);
    END`.execute(db);
    await sql`CREATE TRIGGER notifications_live_read AFTER UPDATE OF read_at ON notifications
      WHEN NEW.in_app = 1 AND OLD.read_at IS NOT NEW.read_at BEGIN
      INSERT INTO live_events (project_id, kind, action, task_key, recipient_id)
      VALUES (COALESCE(NEW.project_id, 0), 'notification', 'read',
        (SELECT key FROM tasks WHERE id = NEW.task_id), NEW.user_id);
    END`.execute(db);
  }
}
