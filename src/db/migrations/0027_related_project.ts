import type { MigrationContext } from './helpers.ts';

/**
 * `related_project_id` is the second project an event discloses (the other end of a link
 * across projects): fan-out sends it only to endpoints whose account sees both.
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema.alterTable('event_outbox').addColumn('related_project_id', 'integer').execute();
}
