import { sql } from 'kysely';
import type { MigrationContext } from './helpers.ts';
import { withId } from './helpers.ts';

/**
 * People sign in (docs/people.md): a password for human accounts, an active flag
 * for every account, browser sessions, and the single-use links that bring people in (setup of
 * the first organization, invitations, password resets). Every secret is stored as its SHA-256
 * only. Idempotency keys can belong to a session instead of a token.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await db.schema.alterTable('users').addColumn('password_hash', 'text').execute();
  await db.schema
    .alterTable('users')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await withId(dialect, db.schema.createTable('sessions'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').columns(['user_id', 'id']).execute();

  await withId(dialect, db.schema.createTable('setup_tokens'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();

  await withId(dialect, db.schema.createTable('invitations'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .addColumn('accepted_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('invitations_org_idx').on('invitations').columns(['organization_id', 'id']).execute();

  await withId(dialect, db.schema.createTable('password_resets'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();

  await db.schema.alterTable('notifications').addColumn('read_at', 'text').execute();
  await db.schema
    .alterTable('api_tokens')
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  // Kept apart from api_tokens: an update there moves the auth epoch (migration 0011) and would empty every token cache.
  await db.schema
    .createTable('api_token_usage')
    .addColumn('token_id', 'integer', (c) => c.primaryKey().references('api_tokens.id').onDelete('cascade'))
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .execute();

  if (dialect === 'postgres') {
    await sql`ALTER TABLE idempotency_keys ALTER COLUMN token_id DROP NOT NULL`.execute(db);
    await sql`ALTER TABLE idempotency_keys ADD COLUMN session_id integer REFERENCES sessions(id) ON DELETE CASCADE`.execute(
      db,
    );
    await sql`ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_session_key_unique UNIQUE (session_id, key)`.execute(
      db,
    );
    await sql`ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_one_owner CHECK ((token_id IS NULL) <> (session_id IS NULL))`.execute(
      db,
    );
    return;
  }
  // SQLite cannot drop NOT NULL: the table is rebuilt with its rows.
  await sql`CREATE TABLE idempotency_keys_next (
    id integer PRIMARY KEY AUTOINCREMENT,
    token_id integer REFERENCES api_tokens(id) ON DELETE CASCADE,
    session_id integer REFERENCES sessions(id) ON DELETE CASCADE,
    key text NOT NULL,
    request_hash text NOT NULL,
    state text NOT NULL,
    response_status integer,
    response_body text,
    grants text,
    lease_expires_at text NOT NULL,
    created_at text NOT NULL,
    CONSTRAINT idempotency_token_key_unique UNIQUE (token_id, key),
    CONSTRAINT idempotency_session_key_unique UNIQUE (session_id, key),
    CONSTRAINT idempotency_one_owner CHECK ((token_id IS NULL) <> (session_id IS NULL))
  )`.execute(db);
  await sql`INSERT INTO idempotency_keys_next (id, token_id, key, request_hash, state, response_status, response_body, grants, lease_expires_at, created_at)
    SELECT id, token_id, key, request_hash, state, response_status, response_body, grants, lease_expires_at, created_at FROM idempotency_keys`.execute(
    db,
  );
  await sql`DROP TABLE idempotency_keys`.execute(db);
  await sql`ALTER TABLE idempotency_keys_next RENAME TO idempotency_keys`.execute(db);
  await db.schema.createIndex('idempotency_created_idx').on('idempotency_keys').column('created_at').execute();
}
