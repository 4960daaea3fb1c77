import { sql } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * Full-text search over task titles and descriptions, kept in sync by the database itself in
 * the same transaction as every task write: FTS5 with triggers on SQLite, a generated
 * tsvector column with a GIN index on PostgreSQL. Titles weigh more than descriptions.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  if (dialect === 'postgres') {
    await sql`ALTER TABLE tasks ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', description), 'B')
    ) STORED`.execute(db);
    await sql`CREATE INDEX tasks_search_idx ON tasks USING GIN (search_vector)`.execute(db);
    return;
  }
  await sql`CREATE VIRTUAL TABLE tasks_fts USING fts5(
    title, description, content='tasks', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`CREATE TRIGGER tasks_fts_insert AFTER INSERT ON tasks BEGIN
    INSERT INTO tasks_fts(rowid, title, description) VALUES (new.id, new.title, new.description);
  END`.execute(db);
  await sql`CREATE TRIGGER tasks_fts_delete AFTER DELETE ON tasks BEGIN
    INSERT INTO tasks_fts(tasks_fts, rowid, title, description) VALUES ('delete', old.id, old.title, old.description);
  END`.execute(db);
  await sql`CREATE TRIGGER tasks_fts_update AFTER UPDATE OF title, description ON tasks BEGIN
    INSERT INTO tasks_fts(tasks_fts, rowid, title, description) VALUES ('delete', old.id, old.title, old.description);
    INSERT INTO tasks_fts(rowid, title, description) VALUES (new.id, new.title, new.description);
  END`.execute(db);
  await sql`INSERT INTO tasks_fts(tasks_fts) VALUES ('rebuild')`.execute(db);
}
