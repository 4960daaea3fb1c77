import { sql } from 'kysely';
import { newHandle } from '../../modules/accounts/handles.ts';
import type { MigrationContext } from './helpers.ts';

/**
 * Every account gets a handle, unique in its organization (src/modules/accounts/handles.ts):
 * existing accounts from their e-mail or name, the oldest first, so an older account keeps the
 * plain handle when two would derive the same one. PostgreSQL then requires it on every row; on
 * SQLite, which cannot add that constraint to an existing column, the unique index refuses a
 * second account without one.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('handle', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  const accounts = await sql<{
    id: number;
    organization_id: number;
    kind: 'human' | 'service';
    email: string | null;
    name: string;
  }>`SELECT id, organization_id, kind, email, name FROM users ORDER BY id`.execute(db);
  const takenByOrganization = new Map<number, Set<string>>();
  for (const account of accounts.rows) {
    const taken = takenByOrganization.get(account.organization_id) ?? new Set<string>();
    takenByOrganization.set(account.organization_id, taken);
    const handle = newHandle(account, taken);
    taken.add(handle);
    await sql`UPDATE users SET handle = ${handle} WHERE id = ${account.id}`.execute(db);
  }
  if (dialect === 'postgres') await sql`ALTER TABLE users ALTER COLUMN handle DROP DEFAULT`.execute(db);
  await db.schema
    .createIndex('users_organization_handle_idx')
    .on('users')
    .columns(['organization_id', 'handle'])
    .unique()
    .execute();
}
