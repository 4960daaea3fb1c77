import { sql } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * For the read paths (bench/). First, one counter that every change to who may see what moves forward: token updates (revocation,
 * expiry, scopes, restriction) and deletions, account and organization changes, memberships,
 * and project deletion or renaming. The API caches tokens and visible projects per process and
 * reads this row on every request to know whether its cache still holds (src/identity/
 * auth-cache.ts). Triggers bump it in the same transaction as the change, whichever process or
 * tool makes it, so no write path can forget to. Task writes never touch it (projects are
 * watched only for the columns a cached project carries).
 */
const WATCHED: Array<[table: string, events: string]> = [
  ['api_tokens', 'UPDATE OR DELETE'],
  ['users', 'UPDATE OR DELETE'],
  ['organizations', 'UPDATE OR DELETE'],
  ['project_memberships', 'INSERT OR UPDATE OR DELETE'],
  ['projects', 'UPDATE OF organization_id, key, name, workflow_id OR DELETE'],
];

export async function up({ db, dialect }: MigrationContext): Promise<void> {
  // A project's tasks in id order: cursor pages read the next rows of the project instead of
  // sorting all of them (SQLite otherwise picks the project/status index and sorts).
  await db.schema.createIndex('tasks_project_id_idx').on('tasks').columns(['project_id', 'id']).execute();

  await db.schema
    .createTable('auth_epoch')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute();
  await sql`INSERT INTO auth_epoch (id, value) VALUES (1, 1)`.execute(db);

  if (dialect === 'postgres') {
    await sql`CREATE FUNCTION bump_auth_epoch() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE auth_epoch SET value = value + 1 WHERE id = 1;
        RETURN NULL;
      END $$`.execute(db);
    for (const [table, events] of WATCHED) {
      await sql`CREATE TRIGGER ${sql.id(`${table}_auth_epoch`)} AFTER ${sql.raw(events)} ON ${sql.table(table)}
        FOR EACH STATEMENT EXECUTE FUNCTION bump_auth_epoch()`.execute(db);
    }
    return;
  }
  // SQLite triggers name one event each, and run per row (a bump per row is as good as one).
  for (const [table, events] of WATCHED) {
    for (const event of events.split(' OR ')) {
      const name = `${table}_auth_epoch_${event.split(' ')[0]!.toLowerCase()}`;
      await sql`CREATE TRIGGER ${sql.id(name)} AFTER ${sql.raw(event)} ON ${sql.table(table)} BEGIN
        UPDATE auth_epoch SET value = value + 1 WHERE id = 1;
      END`.execute(db);
    }
  }
}
