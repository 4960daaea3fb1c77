import { sql } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * SQLite: the last word of a search is a prefix (src/modules/search/search-query.ts), and FTS5
 * answers a prefix by merging the entries of every word that starts with it, which for the 2 to 4
 * letters typed while a word is still being written can be many words. Prefix indexes of
 * those lengths hold each word's first 2, 3 and 4 letters as entries of their own: such a prefix
 * reads one entry. Longer prefixes start few words and stay as they were. Measured at 100,000
 * tasks (bench/RESULTS.md): the statements of a 4-letter prefix cost 2 to 6 times less and a
 * search about a tenth less CPU; the index grows from 18 to 59 MB, and a task insert costs about
 * 0.1 ms more.
 *
 * The table is rebuilt under the same name and columns, so the triggers of 0010_search_scope
 * keep it in step with `tasks` as before.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  if (dialect === 'postgres') return;
  await sql`DROP TABLE tasks_fts`.execute(db);
  await sql`CREATE VIRTUAL TABLE tasks_fts USING fts5(
    title, description, project_id, content='tasks', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2', prefix='2 3 4'
  )`.execute(db);
  await sql`INSERT INTO tasks_fts(tasks_fts) VALUES ('rebuild')`.execute(db);
}
