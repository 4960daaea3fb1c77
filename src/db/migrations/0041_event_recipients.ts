import type { MigrationContext } from './helpers.ts';

/**
 * `recipient_id` names the one account an event is for (a notification's, notification.created):
 * only that account's event stream and the endpoints it governs receive it. Null: everyone
 * who sees the event's project, as before.
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema.alterTable('event_outbox').addColumn('recipient_id', 'integer').execute();
}
