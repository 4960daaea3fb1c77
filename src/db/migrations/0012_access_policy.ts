import { sql } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * For the access policy (src/policy/). A webhook endpoint remembers its governing account, the
 * account that last set its URL or events: fan-out sends it only events of projects that account
 * sees, so nobody can direct events of a project hidden from them to a URL of their choosing.
 * Existing endpoints are governed by their creator, as they were until now.
 *
 * An idempotency record keeps the decisions that let its request through, so a replay is
 * decided again for the caller as it is at the time of the replay.
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('governed_by', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .execute();
  await sql`UPDATE webhook_endpoints SET governed_by = created_by`.execute(db);
  await db.schema.alterTable('idempotency_keys').addColumn('grants', 'text').execute();
}
