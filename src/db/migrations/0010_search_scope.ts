import { sql } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * SQLite: the full-text index also holds each task's project id, so a search restricted to the
 * caller's projects is answered by the index alone. Joining every match to its task row to check
 * its project was most of the cost of a search for a common word (bench/: a tenth of 100k tasks).
 * PostgreSQL filters through the GIN index and the heap as before.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  if (dialect === 'postgres') return;
  for (const trigger of ['tasks_fts_insert', 'tasks_fts_delete', 'tasks_fts_update'])
    await sql`DROP TRIGGER ${sql.id(trigger)}`.execute(db);
  await sql`DROP TABLE tasks_fts`.execute(db);
  await sql`CREATE VIRTUAL TABLE tasks_fts USING fts5(
    title, description, project_id, content='tasks', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`CREATE TRIGGER tasks_fts_insert AFTER INSERT ON tasks BEGIN
    INSERT INTO tasks_fts(rowid, title, description, project_id) VALUES (new.id, new.title, new.description, new.project_id);
  END`.execute(db);
  await sql`CREATE TRIGGER tasks_fts_delete AFTER DELETE ON tasks BEGIN
    INSERT INTO tasks_fts(tasks_fts, rowid, title, description, project_id) VALUES ('delete', old.id, old.title, old.description, old.project_id);
  END`.execute(db);
  await sql`CREATE TRIGGER tasks_fts_update AFTER UPDATE OF title, description, project_id ON tasks BEGIN
    INSERT INTO tasks_fts(tasks_fts, rowid, title, description, project_id) VALUES ('delete', old.id, old.title, old.description, old.project_id);
    INSERT INTO tasks_fts(rowid, title, description, project_id) VALUES (new.id, new.title, new.description, new.project_id);
  END`.execute(db);
  await sql`INSERT INTO tasks_fts(tasks_fts) VALUES ('rebuild')`.execute(db);
}
