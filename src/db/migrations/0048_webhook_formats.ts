import type { MigrationContext } from './helpers.ts';

/**
 * The message format of a webhook endpoint (docs/api/webhooks.md, "Chat formats"): `json`, the
 * signed event envelope as before, or `slack`, `discord` or `teams`, a chat message rendered
 * from it at each attempt. Existing endpoints keep receiving the envelope.
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('format', 'text', (c) => c.notNull().defaultTo('json'))
    .execute();
}
