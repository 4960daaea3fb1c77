import { sql } from 'kysely';
import { isoFromMs } from '../../clock.ts';
import type { MigrationContext } from './helpers.ts';

/**
 * A token acts as exactly one account, and only while the person who issued it could still
 * issue it (docs/operating/security.md): tokens remember their issuer. Until now an owner or
 * admin could create a token acting as another person, and nothing recorded who made a token,
 * so every live token of a person is revoked here (people create new ones for themselves);
 * service accounts' tokens keep working, as if the operator had issued them.
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('api_tokens')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .execute();
  const now = isoFromMs(Date.now());
  await sql`UPDATE api_tokens SET revoked_at = ${now}
    WHERE revoked_at IS NULL AND user_id IN (SELECT id FROM users WHERE kind = 'human')`.execute(db);
}
